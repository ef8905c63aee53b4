#include "cli/system_learning.h"

#include <ATen/ATen.h>

#include <algorithm>
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
#include "pde/periodic_grid.h"
#include "pde/sampled_initial_condition.h"
#include "pde/system_dataset_file.h"
#include "pde/system_initial_condition.h"
#include "pipeline/system_distillation.h"
#include "pipeline/system_prediction.h"
#include "pipeline/system_prediction_file.h"
#include "pipeline/system_scoring.h"
#include "pipeline/trained_system.h"
#include "util/number_format.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// Refuses a dataset of another system than the configuration's.
void require_same_system(const pde::SystemDatasetMetadata& data, const std::string& data_path,
                         const pde::FieldSystem& system, const std::string& source) {
  if (data.system != system.describe())
    throw std::invalid_argument(data_path + ": holds " + data.system + ", but " + source +
                                " describes " + system.describe());
}

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

/// Only --ic or --ic-from, and [predict] settings: the rest was fixed when it was trained.
void require_system_prediction_options(const PredictCommandOptions& options,
                                       const std::vector<std::string>& overrides) {
  if (!options.window_from.empty())
    throw std::invalid_argument(
        "bhpm predict: --window-from is for one field; a field system's run predicts initial "
        "fields given as expressions (--ic \"U0; V0\"), as samples (--ic-file U0.csv) or a "
        "stored experiment's (--ic-from FILE:[SET/]EXPERIMENT)");
  if (!options.config_path.empty())
    throw std::invalid_argument("bhpm predict: --config is not available for a field system's run");
  for (const std::string& assignment : overrides)
    if (assignment.rfind("predict.", 0) != 0)
      throw std::invalid_argument("--set " + assignment +
                                  ": a field system's predict takes [predict] settings only");
}

/// `--ic "U0; V0"`: one expression per field, in the system's order.
std::vector<std::string> field_expressions(const std::string& text) {
  std::vector<std::string> expressions;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(';', begin);
    expressions.push_back(text.substr(begin, end == std::string::npos ? end : end - begin));
    if (end == std::string::npos) return expressions;
    begin = end + 1;
  }
}

/// The --ic, --ic-file or --ic-from text the prediction started from.
std::string initial_condition_text(const PredictCommandOptions& options) {
  if (!options.initial_from.empty()) return options.initial_from;
  return options.initial_file.empty() ? options.initial_condition
                                      : "interpolated from " + options.initial_file;
}

/// What a system's prediction starts from: its box, u0 [q, points], its output times
/// (t_end, output_dt) and, for a stored experiment, the true solution [T, q, points].
struct SystemProblem {
  pde::PeriodicBox box;
  std::vector<double> u0, truth;
  double t_end = 0.0, output_dt = 0.0;
};

/// `--ic`: the expressions on the training data's box and horizon (pde/system_initial_condition.h
/// refuses them, naming --ic, when not finite or not periodic).
SystemProblem expression_problem(const pipeline::TrainedSystem& trained, const std::string& text) {
  const config::SystemConfig& config = trained.config;
  pde::SystemInitialConditionOptions ic;
  ic.kind = "expression";
  ic.expressions = field_expressions(text);
  ic.field_names = [](const std::string&) { return std::string("--ic"); };
  const pde::PeriodicBox box = config.box();
  return {box,
          pde::system_initial_condition(box, config.system, ic, config.sets.seed, "predict", 0),
          {},
          config.sets.solve.t_end,
          config.sets.solve.output_dt};
}

/// `--ic-file`: columns x and each field's of a CSV, interpolated to the training data's
/// grid (pde/sampled_initial_condition.h), on its horizon; one space dimension only.
SystemProblem file_problem(const pipeline::TrainedSystem& trained, const std::string& path) {
  const config::SystemConfig& config = trained.config;
  const pde::PeriodicBox box = config.box();
  if (box.dimensions() != 1)
    throw std::invalid_argument("--ic-file: " + path +
                                ": a 2-D system's initial fields are given with --ic");
  const pde::PeriodicGrid grid(box.x_min(), box.x_max(), box.nx());
  return {box,
          pde::system_initial_condition_from_csv(grid, config.system.fields, path),
          {},
          config.sets.solve.t_end,
          config.sets.solve.output_dt};
}

/// `--ic-from`: the experiment's u0, box, output times and solution.
SystemProblem stored_problem(const pipeline::TrainedSystem& trained, const std::string& text,
                             const std::string& run_dir) {
  const ExperimentReference reference = parse_reference(text);
  const pde::SystemDataset dataset = pde::read_system_dataset(reference.file, reference.set);
  require_same_system(dataset.metadata, reference.file, trained.config.system,
                      run_dir + " (its model)");
  if (reference.experiment >= dataset.set.experiments)
    throw std::invalid_argument("--ic-from: " + reference.file + ":/" + reference.set + " holds " +
                                std::to_string(dataset.set.experiments) + " experiments");
  const std::int64_t q = trained.config.system.size(), points = dataset.box.points();
  const std::int64_t size = static_cast<std::int64_t>(dataset.set.t.size()) * q * points;
  const auto begin = dataset.set.u.begin() + reference.experiment * size;
  std::vector<double> truth(begin, begin + size);
  std::vector<double> u0(truth.begin(), truth.begin() + q * points);
  return {dataset.box, std::move(u0), std::move(truth), dataset.set.t.back(),
          dataset.set.t[1] - dataset.set.t[0]};
}

void print_prediction(const pipeline::SystemPrediction& prediction,
                      const std::vector<pipeline::SystemPredictionScore>& scores) {
  std::printf("linear part treated exactly: %s\n", prediction.linear_part.describe().c_str());
  const auto repaired =
      std::count_if(prediction.added_diffusion.begin(), prediction.added_diffusion.end(),
                    [](double a) { return a > 0.0; });
  std::printf("%zu members solved (%lld repaired by added diffusion), %zu dropped (%.1f s)\n",
              prediction.members.size(), static_cast<long long>(repaired),
              prediction.failures.size(), prediction.seconds);
  for (const std::string& line : prediction.failures) std::fprintf(stderr, "%s\n", line.c_str());
  for (const pipeline::SystemPredictionScore& score : scores)
    std::printf(
        "%s: relative L2 of the mean operator's solve %.4g, of the members' mean %.4g; 95 %% "
        "band holds %.1f %% of the truth; error/spread %.3g\n",
        score.field.c_str(), score.mean_operator_error, score.ensemble_mean_error,
        100.0 * score.coverage, score.error_over_spread);
}

}  // namespace

bool holds_a_system(const std::string& run_dir) {
  return std::filesystem::exists(config::RunLayout{run_dir}.system_model());
}

int run_system_training(const TrainingCommandOptions& options) {
  const config::SystemConfig config =
      config::read_system_config(options.config_path, options.overrides);
  const pde::SystemDataset dataset = pde::read_system_dataset(options.data_path, "train");
  require_same_system(dataset.metadata, options.data_path, config.system, options.config_path);
  const model::SystemLeafData data = pipeline::system_leaf_data(
      dataset.set, dataset.box, options.experiments, options.points, options.data_path + ":/train");
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

int run_system_evaluation(const EvaluateOptions& options) {
  if (options.truth_free || !options.overrides.empty())
    throw std::invalid_argument(
        "bhpm evaluate: --truth-free and --set are not available for a field system's run "
        "(docs/systems.md): it is scored against its dataset's solution grids");
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.held_out_metrics()
                                 : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm evaluate");
  io::require_output_folder(output);
  const pipeline::TrainedSystem trained =
      pipeline::load_trained_system(config::RunLayout{options.run_dir}.system_model());
  pde::SystemDataset dataset = pde::read_system_dataset(options.data_path, options.set_name);
  require_same_system(dataset.metadata, options.data_path, trained.config.system,
                      options.run_dir + " (its model)");
  if (options.experiments > dataset.set.experiments)
    throw std::invalid_argument("--experiments: " + options.data_path + ":/" + options.set_name +
                                " holds " + std::to_string(dataset.set.experiments) +
                                " experiments");
  if (options.experiments > 0) dataset.set.experiments = options.experiments;
  use_threads(0);
  const pipeline::SystemOperatorTruth truth = pipeline::system_operator_truth(
      trained.config.system, dataset.box, dataset.set, trained.config.learning.order,
      options.max_points, trained.config.sets.seed);
  const auto scores = pipeline::score_system_roots(trained, truth, options.function_only);
  io::write_text_atomically(
      output, pipeline::system_metrics_json(
                  scores, {{"run_dir", options.run_dir},
                           {"data", options.data_path},
                           {"set", options.set_name},
                           {"system", trained.config.system.describe()},
                           {"predictive", options.function_only ? "f" : "f + sigma_f^2"}}));
  std::printf("scored: %s (%s set): %s\n%s", options.data_path.c_str(), options.set_name.c_str(),
              trained.config.system.describe().c_str(),
              eval::metrics_comparison_table(scores).c_str());
  std::printf("metrics: %s\n", output.c_str());
  return 0;
}

int run_system_distillation(const DistillCommandOptions& options) {
  const std::vector<std::string> overrides = distill_overrides(options);
  for (const std::string& assignment : overrides)
    if (assignment.rfind("distill.", 0) != 0)
      throw std::invalid_argument("--set " + assignment +
                                  ": a field system's distill takes [distill] settings only "
                                  "(the rest was fixed when it was trained)");
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

int run_system_prediction(const PredictCommandOptions& options) {
  const std::vector<std::string> overrides = prediction_overrides(options);
  require_system_prediction_options(options, overrides);
  const util::Stopwatch stopwatch;
  const std::string output = prediction_output(options);
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm predict");
  io::require_output_folder(output);
  const pipeline::TrainedSystem trained =
      pipeline::load_trained_system(config::RunLayout{options.run_dir}.system_model(), overrides);
  const SystemProblem problem =
      !options.initial_from.empty() ? stored_problem(trained, options.initial_from, options.run_dir)
      : !options.initial_file.empty() ? file_problem(trained, options.initial_file)
                                      : expression_problem(trained, options.initial_condition);
  const config::SystemPredictConfig& settings = trained.config.learning.predict;
  pipeline::SystemPredictionOptions prediction_options;
  prediction_options.samples = settings.samples;
  prediction_options.features = settings.features;
  prediction_options.seed = trained.config.sets.seed;
  prediction_options.max_amplification = settings.max_amplification;
  prediction_options.solve = trained.config.sets.solve;
  prediction_options.solve.tolerance = settings.step_tolerance;
  prediction_options.solve.t_end = problem.t_end;
  prediction_options.solve.output_dt = problem.output_dt;
  use_threads(0);
  const pipeline::SystemPrediction prediction =
      pipeline::predict_system(trained, problem.box, problem.u0, prediction_options);
  const pipeline::SystemBand band = pipeline::system_band(prediction);
  pipeline::SystemPredictionRecord record{&prediction,   &band, trained.config.system.fields,
                                          problem.truth, {},    {}};
  if (!problem.truth.empty())
    record.scores =
        pipeline::score_system_prediction(prediction, band, problem.truth, record.fields);
  record.attributes = {{"run_dir", options.run_dir},
                       {"initial_condition", initial_condition_text(options)},
                       {"system", trained.config.system.describe()},
                       {"config", trained.config.resolved_toml},
                       {"created_by", "bhpm " BHPM_VERSION}};
  pipeline::write_system_prediction(output, problem.box, record);
  print_prediction(prediction, record.scores);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
