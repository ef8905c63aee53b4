#include "cli/system_learning.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli/process_setup.h"
#include "cli/training_printer.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pde/system_dataset_file.h"
#include "pipeline/system_distillation.h"
#include "pipeline/trained_system.h"
#include "util/comma_list.h"
#include "util/number_format.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

void print_trained(const pipeline::TrainedSystem& trained, const model::SystemLeafData& data,
                   const std::string& model_path) {
  const std::vector<std::string>& fields = trained.config.system.fields;
  std::printf(
      "trained %lld leaves of %zu fields on %lld points each (%.1f s); roots on %lld "
      "rows (K = %d, %.1f s)\n",
      static_cast<long long>(data.leaves()), fields.size(), static_cast<long long>(data.points()),
      trained.leaf_seconds, static_cast<long long>(trained.rows.inputs.size(0)),
      trained.config.learning.order, trained.root_seconds);
  const at::Tensor sigma = trained.leaves->noise_scale().detach();
  for (std::size_t f = 0; f < fields.size(); ++f) {
    std::printf("%s: leaf noise sd", fields[f].c_str());
    for (std::int64_t i = 0; i < sigma.size(0); ++i)
      std::printf(" %.4g", sigma[i][static_cast<std::int64_t>(f)].item<double>());
    std::printf("; root noise sd %.4g\n",
                std::sqrt(trained.roots[f]->likelihood()->variance().item<double>()));
  }
  std::printf("model: %s\n", model_path.c_str());
}

/// Each field's pointwise equation (with its table unless `quiet`), then its weak form.
void print_system_distillation(const pipeline::TrainedSystem& trained,
                               const pipeline::SystemDistillation& distillation, bool quiet) {
  const config::DistillConfig& settings = trained.config.learning.distill;
  const std::string points =
      settings.max_points > 0
          ? std::to_string(settings.max_points) + " points drawn in the leaves' boxes"
          : std::to_string(trained.rows.inputs.size(0)) + " root rows";
  std::printf(
      "distill: %lld joint samples of each root's posterior at %s; library: monomials of every "
      "field's partials up to degree %d\n",
      static_cast<long long>(settings.samples), points.c_str(), settings.degree);
  for (const pipeline::FieldDistillation& f : distillation.fields) {
    if (!quiet) std::printf("%s", eval::distillation_table(f.distillation).c_str());
    std::printf("%s\n", eval::distilled_equation(f.distillation).c_str());
    const std::string truth =
        f.distillation.has_truth
            ? util::format_significant(100.0 * f.distillation.truth_explained, 5) + " %"
            : "unknown";
    std::printf("  explains %.4f %% of the posterior mean's variance (the true operator %s)\n",
                100.0 * f.distillation.explained, truth.c_str());
    const std::string warning = eval::distillation_warning(f.distillation);
    if (!warning.empty()) std::fprintf(stderr, "%s: %s\n", f.field.c_str(), warning.c_str());
  }
  if (!distillation.weak_missing.empty())
    std::fprintf(stderr, "distill: no equations in weak form: %s\n",
                 distillation.weak_missing.c_str());
  for (const pipeline::FieldDistillation& f : distillation.fields) {
    if (!f.weak) continue;
    if (!quiet && &f == &distillation.fields.front())
      std::printf("distill, weak form: %s\n",
                  eval::weak_form_settings(*f.weak, static_cast<std::int64_t>(trained.boxes.size()),
                                           settings.weak_x_points, settings.weak_t_points)
                      .c_str());
    if (!quiet) std::printf("%s", eval::terms_table(f.weak->terms, f.weak->has_truth).c_str());
    std::printf("weak form: %s\n",
                eval::equation_text(f.weak->terms, f.weak->left_hand_side).c_str());
  }
}

}  // namespace

void require_same_system(const pde::SystemDatasetMetadata& data, const std::string& data_path,
                         const pde::FieldSystem& system, const std::string& source) {
  if (!data.measured_only() && data.system != system.describe())
    throw std::invalid_argument(data_path + ": holds " + data.system + ", but " + source +
                                " describes " + system.describe());
  if (data.fields != system.fields || data.dimensions != system.dimensions)
    throw std::invalid_argument(
        data_path + ": holds the fields " + util::join_with_commas(data.fields) + " in " +
        std::to_string(data.dimensions) + "-D, but " + source + " describes " +
        util::join_with_commas(system.fields) + " in " + std::to_string(system.dimensions) + "-D");
}

void require_section_settings(const std::vector<std::string>& overrides, const std::string& section,
                              const std::string& command) {
  for (const std::string& assignment : overrides)
    if (assignment.rfind(section + ".", 0) != 0)
      throw std::invalid_argument("--set " + assignment + ": a field system's " + command +
                                  " takes [" + section +
                                  "] settings only (the rest was fixed when it was trained)");
}

bool holds_a_system(const std::string& run_dir) {
  return std::filesystem::exists(config::RunLayout{run_dir}.system_model());
}

int run_system_training(const TrainingCommandOptions& options) {
  const config::SystemConfig config =
      config::read_system_config(options.config_path, options.overrides);
  require_same_system(pde::read_system_dataset_metadata(options.data_path), options.data_path,
                      config.system, options.config_path);
  const model::SystemLeafData data = pipeline::read_system_leaf_data(
      options.data_path, "train", options.experiments, options.points);
  std::filesystem::create_directories(options.run_dir);
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm train");
  use_threads(0);  // training is compute-bound: every core
  const pipeline::TrainedSystem trained =
      pipeline::train_system(config, data, training_printer(options.quiet));
  const std::string model_path = config::RunLayout{options.run_dir}.system_model();
  pipeline::save_trained_system(model_path, trained);
  print_trained(trained, data, model_path);
  return 0;
}

int run_system_distillation(const DistillCommandOptions& options) {
  const std::vector<std::string> overrides = distill_overrides(options);
  require_section_settings(overrides, "distill", "distill");
  if (!options.data_path.empty() || !options.config_path.empty())
    throw std::invalid_argument(
        "bhpm distill: --data is not available for a field system's run: its truth is the "
        "system of the configuration it was trained with");
  const util::Stopwatch stopwatch;
  const std::string output = distillation_output(options);
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm distill");
  io::require_output_folder(output);
  const pipeline::TrainedSystem trained =
      pipeline::load_trained_system(config::RunLayout{options.run_dir}.system_model(), overrides);
  use_threads(0);
  const pipeline::SystemDistillation distillation = pipeline::distill_system(trained);
  io::write_text_atomically(
      output, pipeline::system_distillation_json(trained, distillation, options.run_dir));
  print_system_distillation(trained, distillation, options.quiet);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
