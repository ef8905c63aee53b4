#include "cli/evaluate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "cli/number_checks.h"
#include "cli/process_setup.h"
#include "cli/run_folder.h"
#include "cli/setting_flags.h"
#include "cli/training_printer.h"
#include "config/dataset_equation.h"
#include "config/run_layout.h"
#include "eval/held_out_operator_data.h"
#include "eval/metrics_json.h"
#include "eval/operator_metrics.h"
#include "eval/point_subset.h"
#include "eval/root_predictive.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "model/bhpm_model.h"
#include "model/bhpm_training.h"
#include "model/held_out_leaves.h"
#include "model/root_data.h"
#include "model/root_gp.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "util/device.h"

namespace bhpm::cli {

namespace {

/// Of every this many measurements of a held-out experiment, one is kept back from its
/// leaf's fit to score the leaf.
constexpr std::int64_t kKeepBackEvery = 5;

/// What the metrics score: "f + sigma_f^2" (a measured u_t) or "f" (the operator alone).
std::string predictive_name(const EvaluateOptions& options) {
  return options.function_only ? "f" : "f + sigma_f^2";
}

eval::PredictiveNoise predictive_noise(const EvaluateOptions& options) {
  return options.function_only ? eval::PredictiveNoise::kExcluded
                               : eval::PredictiveNoise::kIncluded;
}

/// "<dir>/<stem><suffix>.json" beside `path` (metrics.json -> metrics-leaves.json).
std::string sibling(const std::string& path, const std::string& suffix) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}

/// The number of experiments to score: N when asked (refused beyond `available`), else all.
std::int64_t scored_count(const EvaluateOptions& options, std::int64_t available) {
  if (options.experiments > available)
    throw std::invalid_argument(
        options.data_path + ":/" + options.set_name + ": " + std::to_string(options.experiments) +
        " experiments requested, the set holds " + std::to_string(available));
  return options.experiments > 0 ? options.experiments : available;
}

/// A scoring's metrics, per-experiment RMSE and description, for metrics.json.
struct Scoring {
  eval::OperatorMetrics metrics;
  std::vector<double> per_experiment;
  std::vector<std::pair<std::string, std::string>> context;
  std::string true_equation;  ///< "" for scorings without a truth
};

/// The root against the true operator on the set's stored grids (paper section 3).
Scoring truth_scoring(const EvaluateOptions& options, const gp::SparseVariationalGpImpl& root) {
  const pde::Equation equation = config::read_dataset_equation(options.data_path);
  pde::ExperimentSet set = pde::read_experiment_set(options.data_path, options.set_name);
  set.u = set.u.slice(0, 0, scored_count(options, set.u.size(0)));
  const int order = static_cast<int>(root.kernel()->dimensions() - 1);
  const eval::OperatorTestData test =
      eval::held_out_operator_data(set, equation, order, options.max_points);
  const gp::MarginalNormal predictive =
      eval::root_predictive(root, test.inputs, predictive_noise(options));
  return {
      eval::operator_metrics(predictive.mean, predictive.variance, test.target),
      eval::rmse_per_experiment(predictive.mean, test.target, test.experiment, set.u.size(0)),
      {{"target", "the true operator on the stored grids"}, {"true_equation", equation.describe()}},
      equation.describe()};
}

/// Leaves of the set's own, fitted to all but every kKeepBackEvery-th measurement.
struct HeldOutFit {
  model::LeafModel leaves;
  model::LeafData fitted, kept_back;
};

HeldOutFit fit_scored_leaves(const EvaluateOptions& options, const config::RunConfig& config) {
  const auto measured = pde::read_measured_set(options.data_path, options.set_name);
  const std::int64_t count = scored_count(options, static_cast<std::int64_t>(measured.size()));
  const model::LeafData data =
      model::leaf_data_from_measurements(measured, count, model::fewest_points(measured, count),
                                         options.data_path + ":/" + options.set_name);
  auto [fitted, kept_back] =
      model::keep_back_points(model::on_device(data, config.compute.device), kKeepBackEvery);
  if (!options.quiet)
    std::fprintf(stderr, "fitting %lld held-out leaves to %lld points each (%lld kept back)\n",
                 static_cast<long long>(count), static_cast<long long>(fitted.points()),
                 static_cast<long long>(kept_back.points()));
  model::LeafModel leaves =
      model::fit_held_out_leaves(fitted, config.leaves.model, config.leaves.training,
                                 config.simulate.seed, training_printer(options.quiet));
  return {leaves, fitted, kept_back};
}

/// The root against the held-out leaves' (v, u_t) at their fitted points.
Scoring leaf_target_scoring(const EvaluateOptions& options, const gp::SparseVariationalGpImpl& root,
                            const HeldOutFit& fit) {
  const int order = static_cast<int>(root.kernel()->dimensions() - 1);
  const model::RootData rows = model::root_data_detached(*fit.leaves, fit.fitted, order);
  at::Tensor experiment =
      at::arange(fit.fitted.leaves(), at::kLong).repeat_interleave(fit.fitted.points());
  at::Tensor inputs = rows.inputs.cpu(), target = rows.targets.cpu();
  if (options.max_points > 0 && options.max_points < rows.points()) {
    const at::Tensor keep = eval::evenly_spread_subset(rows.points(), options.max_points);
    inputs = inputs.index_select(0, keep);
    target = target.index_select(0, keep);
    experiment = experiment.index_select(0, keep);
  }
  const gp::MarginalNormal predictive =
      eval::root_predictive(root, inputs, predictive_noise(options));
  return {eval::operator_metrics(predictive.mean, predictive.variance, target),
          eval::rmse_per_experiment(predictive.mean, target, experiment, fit.fitted.leaves()),
          {{"target", "held-out leaves' u_t (truth-free: phase 1 leaves of the scored set)"}},
          ""};
}

/// The held-out leaves' predictive against the measurements kept back from their fit.
Scoring kept_back_scoring(const HeldOutFit& fit) {
  const gp::MarginalNormal on_device =
      model::leaf_predictive(*fit.leaves, fit.fitted, fit.kept_back);
  const gp::MarginalNormal predictive{on_device.mean.cpu(), on_device.variance.cpu()};
  const at::Tensor measured = fit.kept_back.u.reshape({-1}).cpu();
  const at::Tensor experiment =
      at::arange(fit.kept_back.leaves(), at::kLong).repeat_interleave(fit.kept_back.points());
  return {eval::operator_metrics(predictive.mean, predictive.variance, measured),
          eval::rmse_per_experiment(predictive.mean, measured, experiment, fit.kept_back.leaves()),
          {{"target", "measurements kept back from the held-out leaves' fit"},
           {"predictive", "u_leaf + sigma_leaf^2 + last-layer Laplace variance"}},
          ""};
}

void write_scoring(const std::string& path, const Scoring& scoring,
                   std::vector<std::pair<std::string, std::string>> context) {
  context.insert(context.end(), scoring.context.begin(), scoring.context.end());
  io::write_text_atomically(path,
                            eval::metrics_json(scoring.metrics, context, scoring.per_experiment));
}

}  // namespace

void setup_evaluate(CLI::App& app) {
  auto options = std::make_shared<EvaluateOptions>();
  CLI::App* command = app.add_subcommand(
      "evaluate", "Score the learned operator on held-out experiments (RMSE, NLPD, coverage)");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--data", options->data_path, "Dataset with a test set (HDF5)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output_path,
                      "Metrics file (JSON; default RUN_DIR/metrics.json)");
  command
      ->add_option("--max-points", options->max_points,
                   "Score an evenly spread subset of this many points (0 = all)")
      ->check(non_negative());
  command->add_option("--set-name", options->set_name, "Set of the dataset to score")
      ->check(CLI::IsMember({"test", "train"}));
  command
      ->add_option("--experiments", options->experiments,
                   "Score the first N experiments of the set (default: all)")
      ->check(non_negative());
  command->add_flag("--function-only", options->function_only,
                    "Score the posterior of the operator f alone (without the noise variance "
                    "sigma_f^2): the calibration of what operator samples carry");
  command->add_flag("--truth-free", options->truth_free,
                    "Also score against leaves fitted to the set's measurements, as for data "
                    "without a known equation (always done for those)");
  command->add_option("--set", options->overrides,
                      "Override a setting of the run's configuration, e.g. "
                      "train_leaves.iterations=2000 for the held-out leaves (repeatable)");
  add_setting_flag(*command, options->overrides, "--device", "compute.device",
                   "Where the held-out leaves train and the root is evaluated: cpu, cuda or "
                   "cuda:N");
  command->add_flag("-q,--quiet", options->quiet, "No progress of the held-out leaves' fit");
  command->callback([options] { throw CLI::RuntimeError(run_evaluate(*options)); });
}

int run_evaluate(const EvaluateOptions& options) {
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.held_out_metrics()
                                 : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm evaluate");
  io::require_output_folder(output);
  TrainedRun run = load_trained_run(options.run_dir, options.overrides);
  util::require_available(run.config.compute.device, "compute.device");
  run.root->to(run.config.compute.device);
  const bool has_truth = !pde::read_dataset_metadata(options.data_path).config.empty();
  use_threads(0);
  const std::string learned_mean = model::describe_root_mean(*run.root->mean());
  const std::vector<std::pair<std::string, std::string>> context = {
      {"run_dir", options.run_dir},
      {"data", options.data_path},
      {"set", options.set_name},
      {"predictive", predictive_name(options)},
      {"learned_mean", learned_mean}};
  std::vector<std::pair<std::string, eval::OperatorMetrics>> columns;
  if (has_truth) {
    const Scoring truth = truth_scoring(options, *run.root);
    write_scoring(output, truth, context);
    columns.emplace_back("truth", truth.metrics);
    std::printf("true operator: %s\n", truth.true_equation.c_str());
  }
  if (!has_truth || options.truth_free) {
    const HeldOutFit fit = fit_scored_leaves(options, run.config);
    const Scoring free = leaf_target_scoring(options, *run.root, fit);
    write_scoring(has_truth ? sibling(output, "-truth-free") : output, free, context);
    const Scoring leaves = kept_back_scoring(fit);
    write_scoring(
        sibling(output, "-leaves"), leaves,
        {{"run_dir", options.run_dir}, {"data", options.data_path}, {"set", options.set_name}});
    columns.emplace_back("truth-free", free.metrics);
    columns.emplace_back("leaves (u)", leaves.metrics);
  }
  std::printf("scored: %s (%s set)\nlearned mean:  %s\n%s", options.data_path.c_str(),
              options.set_name.c_str(), learned_mean.c_str(),
              eval::metrics_comparison_table(columns).c_str());
  std::printf("metrics: %s\n", output.c_str());
  return 0;
}

}  // namespace bhpm::cli
