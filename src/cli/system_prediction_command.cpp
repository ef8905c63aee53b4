#include "cli/system_prediction_command.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/prediction_output.h"
#include "cli/process_setup.h"
#include "cli/system_learning.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "io/folder_lock.h"
#include "pde/periodic_grid.h"
#include "pde/sampled_initial_condition.h"
#include "pde/system_dataset_file.h"
#include "pde/system_initial_condition.h"
#include "pipeline/system_calibration.h"
#include "pipeline/system_equation_operators.h"
#include "pipeline/system_prediction.h"
#include "pipeline/system_prediction_file.h"
#include "pipeline/trained_system.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// Only --ic, --ic-file or --ic-from, and [predict] settings: the rest was fixed when it
/// was trained.
void require_system_prediction_options(const PredictCommandOptions& options,
                                       const std::vector<std::string>& overrides) {
  if (!options.window_from.empty())
    throw std::invalid_argument(
        "bhpm predict: --window-from is for one field; a field system's run predicts initial "
        "fields given as expressions (--ic \"U0; V0\"), as samples (--ic-file U0.csv) or a "
        "stored experiment's (--ic-from FILE:[SET/]EXPERIMENT)");
  if (!options.config_path.empty())
    throw std::invalid_argument("bhpm predict: --config is not available for a field system's run");
  require_section_settings(overrides, "predict", "predict");
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

/// `--ic-file`: columns x (and y) and each field's of a CSV, interpolated to the training
/// data's grid (pde/sampled_initial_condition.h), on its horizon.
SystemProblem file_problem(const pipeline::TrainedSystem& trained, const std::string& path) {
  const config::SystemConfig& config = trained.config;
  const pde::PeriodicBox box = config.box();
  const std::vector<std::string>& fields = config.system.fields;
  return {box,
          box.dimensions() == 2
              ? pde::system_initial_condition_from_csv(box, fields, path)
              : pde::system_initial_condition_from_csv(
                    pde::PeriodicGrid(box.x_min(), box.x_max(), box.nx()), fields, path),
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
  const bool equation = settings.operator_source != "gp";  // distill.json's coefficient samples
  pipeline::SpreadCalibration calibration{{}, "none: the equations' coefficient samples"};
  if (!equation)
    calibration = pipeline::run_spread_calibration(options.run_dir, trained.config.system.fields);
  prediction_options.spread_factors = calibration.factors;
  prediction_options.solve = trained.config.sets.solve;
  prediction_options.solve.tolerance = settings.step_tolerance;
  prediction_options.solve.t_end = problem.t_end;
  prediction_options.solve.output_dt = problem.output_dt;
  use_threads(0);
  const pipeline::SystemOperators operators =
      equation ? pipeline::system_equation_operators(options.run_dir, trained,
                                                     settings.operator_source, settings.samples)
               : pipeline::system_root_operators(trained, prediction_options);
  const pipeline::SystemPrediction prediction =
      pipeline::predict_system(trained, problem.box, problem.u0, prediction_options, &operators);
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
                       {"operator", settings.operator_source},
                       {"calibration", calibration.description},
                       {"created_by", "bhpm " BHPM_VERSION}};
  pipeline::write_system_prediction(output, problem.box, record);
  std::printf("band: %s\n", calibration.description.c_str());
  print_prediction(prediction, record.scores);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
