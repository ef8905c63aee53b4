#include "cli/distill_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "eval/operator_distillation.h"
#include "eval/weak_form_distillation.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"
#include "model/leaf_grid_fields.h"
#include "pde/measured_dataset_file.h"
#include "pipeline/distillation_inputs.h"
#include "pipeline/run_folder.h"
#include "util/random.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// The settings line and every term some sample kept.
void print_table(const eval::Distillation& d, const pipeline::DistillPoints& points,
                 std::int64_t samples, bool resampled) {
  std::vector<double> sorted = d.thresholds;
  std::sort(sorted.begin(), sorted.end());
  std::string variables;
  for (const auto& name : d.library.variables) variables += (variables.empty() ? "" : ", ") + name;
  std::printf(
      "distill: %lld pathwise samples of the root at %lld root inputs of %lld training "
      "experiment(s); library: %lld monomials of (%s) up to degree %d; threshold by %lld-fold "
      "cross-validation (one-standard-error rule), median %.3g%s\n",
      static_cast<long long>(samples), static_cast<long long>(points.v.size(0)),
      static_cast<long long>(points.experiments), static_cast<long long>(d.library.size()),
      variables.c_str(), d.library.degree, static_cast<long long>(points.folds),
      sorted[sorted.size() / 2],
      resampled ? "; each sample fitted on its own bootstrap resample of the experiments" : "");
  std::printf("%s", eval::distillation_table(d).c_str());
}

/// The summary; `quiet`: the equation, the truth and the explained fraction only.
void print_distillation(const eval::Distillation& d, const pipeline::DistillPoints& points,
                        std::int64_t samples, bool resampled, const std::string& truth,
                        bool quiet) {
  if (!quiet) print_table(d, points, samples, resampled);
  std::printf("%s\n", eval::distilled_equation(d).c_str());
  if (!truth.empty())
    std::printf("true operator: %s (explains %.4f %% of the posterior mean's variance)\n",
                truth.c_str(), 100.0 * d.truth_explained);
  std::printf(
      "the equation explains %.4f %% of the posterior mean's variance on the points (misfit RMS "
      "%.3g, posterior std of f RMS %.3g)\n",
      100.0 * d.explained, d.misfit_rms, d.posterior_std_rms);
  const std::string warning = eval::distillation_warning(d);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

/// The weak form's settings line and table (unless `quiet`) and its equation.
void print_weak_form(const eval::WeakFormDistillation& w, const std::string& settings, bool quiet) {
  if (!quiet)
    std::printf("distill, weak form: %s\n%s", settings.c_str(),
                eval::terms_table(w.terms, w.has_truth).c_str());
  std::printf("weak form: %s\n", eval::equation_text(w.terms).c_str());
}

/// The weak form beside `pointwise`, on the training leaves' u over the windows that
/// `windows` (a dataset) holds; none, with the reason on stderr, when it cannot be fitted.
std::optional<eval::WeakFormDistillation> weak_form(const std::string& run_dir,
                                                    const std::string& windows,
                                                    const pipeline::TrainedRun& run,
                                                    std::int64_t dimensions,
                                                    const eval::Distillation& pointwise) {
  const config::DistillConfig& settings = run.config.distill;
  std::string why = std::filesystem::exists(windows)
                        ? ""
                        : "it reads the training experiments' windows from " + windows +
                              ", which does not exist (pass the training dataset with --data)";
  std::optional<eval::WeakFormDistillation> weak;
  if (why.empty()) {
    const std::vector<nn::DomainBox> boxes =
        model::domain_boxes(pde::read_measured_set(windows, "train"));
    const model::LeafModel leaves =
        pipeline::trained_leaves(run_dir, run.config, static_cast<std::int64_t>(boxes.size()));
    eval::WeakFormOptions options = settings.weak;
    options.regression.seed = util::derive_seed(run.config.predict.options.seed, "distill_weak", 0);
    weak = eval::weak_form_beside(
        model::leaf_grid_fields(*leaves, boxes, settings.weak_x_points, settings.weak_t_points),
        static_cast<int>(dimensions) - 1, settings.degree, options, pointwise, why);
  }
  if (!weak) std::fprintf(stderr, "distill: no equation in weak form: %s\n", why.c_str());
  return weak;
}

}  // namespace

void setup_distill(CLI::App& app) {
  auto options = std::make_shared<DistillCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "distill", "The learned operator as an equation: terms, inclusion probabilities, intervals");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("-o,--output", options->output_path,
                      "Distillation file (JSON; default RUN_DIR/distill.json)");
  command
      ->add_option("--data", options->data_path,
                   "Dataset whose stored equation is the truth (default RUN_DIR/data.h5)")
      ->check(CLI::ExistingFile);
  auto add_flag = [&](const std::string& flag, const std::string& key, const std::string& help) {
    add_setting_flag(*command, options->flag_overrides, flag, "distill." + key, help);
  };
  add_flag("--samples", "samples", "Number of operator samples S (>= 2; default 64)");
  add_flag("--degree", "degree", "Largest total degree of a library monomial (1 to 5; default 3)");
  add_override_option(*command, options->overrides,
                      "Override a setting, e.g. --set distill.max_points=8192");
  command->add_flag("-q,--quiet", options->quiet,
                    "Only the equation and how much it explains, not the table of terms");
  command->callback([options] { throw CLI::RuntimeError(run_distill(*options)); });
}

int run_distill(const DistillCommandOptions& options) {
  const util::Stopwatch stopwatch;
  const config::RunLayout layout{options.run_dir};
  const std::string output =
      options.output_path.empty() ? layout.distillation() : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm distill");
  io::require_output_folder(output);
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), options.flag_overrides.begin(), options.flag_overrides.end());
  const pipeline::TrainedRun run =
      pipeline::load_trained_run(options.run_dir, overrides, options.config_path);
  const config::DistillConfig& settings = run.config.distill;
  const gp::SparseVariationalGp& root = run.root;
  for (at::Tensor& parameter : root->parameters()) parameter.requires_grad_(false);
  const std::int64_t dimensions = root->kernel()->dimensions();
  const pde::TermLibrary library =
      pde::make_term_library(model::root_variable_names(dimensions), settings.degree);
  use_threads(0);

  const pipeline::DistillPoints points =
      pipeline::distill_points(layout.root(), settings.max_points, dimensions);
  const std::int64_t features = run.config.predict.options.pathwise.features;
  const std::uint64_t seed = util::derive_seed(run.config.predict.options.seed, "distill", 0);
  eval::DistillationInputs inputs = eval::root_distillation_inputs(
      *root, points.v, points.fold, settings.samples, {features, seed});
  const std::string data = pipeline::truth_dataset(options.data_path, options.run_dir);
  std::string truth;
  inputs.truth = pipeline::true_operator(data, points.v, truth);
  eval::DistillOptions distill_options = settings.options;
  eval::SparseRegressionOptions& regression = distill_options.regression;
  regression.resample_folds = settings.resample_experiments && points.experiments >= 2;
  regression.seed = util::derive_seed(run.config.predict.options.seed, "distill_resample", 0);
  const eval::Distillation distillation = eval::distill_operator(inputs, library, distill_options);
  // The training windows come from the run's own dataset, which --data may not be.
  const std::optional<eval::WeakFormDistillation> weak =
      settings.weak_form
          ? weak_form(options.run_dir,
                      std::filesystem::exists(layout.data()) || options.data_path.empty()
                          ? layout.data()
                          : options.data_path,
                      run, dimensions, distillation)
          : std::nullopt;

  eval::DistillationSettings record;
  record.run_dir = options.run_dir;
  record.data = inputs.truth.defined() ? data : "";
  record.samples = settings.samples;
  record.features = features;
  record.points = points.v.size(0);
  record.folds = points.folds;
  record.resampled = regression.resample_folds;
  record.seed = seed;
  record.weak_x_points = weak ? settings.weak_x_points : 0;
  record.weak_t_points = weak ? settings.weak_t_points : 0;
  record.config = run.config.resolved_toml;
  io::write_text_atomically(output,
                            eval::distillation_json(distillation, record, weak ? &*weak : nullptr));
  print_distillation(distillation, points, settings.samples, regression.resample_folds,
                     inputs.truth.defined() ? truth : "", options.quiet);
  if (weak)
    print_weak_form(*weak,
                    eval::weak_form_settings(*weak, points.experiments, settings.weak_x_points,
                                             settings.weak_t_points),
                    options.quiet);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
