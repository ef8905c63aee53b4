#include "cli/evaluate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cli/process_setup.h"
#include "cli/run_folder.h"
#include "config/dataset_equation.h"
#include "config/run_layout.h"
#include "eval/held_out_operator_data.h"
#include "eval/metrics_json.h"
#include "eval/operator_metrics.h"
#include "eval/root_predictive.h"
#include "io/atomic_file.h"
#include "model/bhpm_model.h"
#include "model/bhpm_training.h"
#include "model/root_gp.h"
#include "pde/dataset_file.h"

namespace bhpm::cli {

namespace {

/// What the metrics score: "f + sigma_f^2" (a measured u_t) or "f" (the operator alone).
std::string predictive_name(const EvaluateOptions& options) {
  return options.function_only ? "f" : "f + sigma_f^2";
}

/// The set to score, cut to its first N experiments when asked.
pde::ExperimentSet scored_experiments(const EvaluateOptions& options) {
  pde::ExperimentSet set = pde::read_experiment_set(options.data_path, options.set_name);
  const std::int64_t available = set.u.size(0);
  if (options.experiments > available)
    throw std::invalid_argument(
        options.data_path + ":/" + options.set_name + ": " + std::to_string(options.experiments) +
        " experiments requested, the set holds " + std::to_string(available));
  if (options.experiments > 0) set.u = set.u.slice(0, 0, options.experiments);
  return set;
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
                   "Score an evenly spread subset of this many grid points (0 = all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--set-name", options->set_name, "Set of the dataset to score")
      ->check(CLI::IsMember({"test", "train"}));
  command
      ->add_option("--experiments", options->experiments,
                   "Score the first N experiments of the set (default: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--function-only", options->function_only,
                    "Score the posterior of the operator f alone (without the noise variance "
                    "sigma_f^2): the calibration of what operator samples carry");
  command->callback([options] { throw CLI::RuntimeError(run_evaluate(*options)); });
}

int run_evaluate(const EvaluateOptions& options) {
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.held_out_metrics()
                                 : options.output_path;
  io::require_output_folder(output);
  const gp::SparseVariationalGp root = trained_root(options.run_dir);
  const pde::Equation equation = config::read_dataset_equation(options.data_path);
  const pde::ExperimentSet set = scored_experiments(options);
  use_threads(0);
  const int order = static_cast<int>(root->kernel()->dimensions() - 1);
  const eval::OperatorTestData test =
      eval::held_out_operator_data(set, equation, order, options.max_points);
  const gp::MarginalNormal predictive = eval::root_predictive(
      *root, test.inputs,
      options.function_only ? eval::PredictiveNoise::kExcluded : eval::PredictiveNoise::kIncluded);
  const eval::OperatorMetrics metrics =
      eval::operator_metrics(predictive.mean, predictive.variance, test.target);
  const std::vector<double> per_experiment =
      eval::rmse_per_experiment(predictive.mean, test.target, test.experiment, set.u.size(0));
  const std::string learned_mean = model::describe_root_mean(*root->mean());
  io::write_text_atomically(output, eval::metrics_json(metrics,
                                                       {{"run_dir", options.run_dir},
                                                        {"data", options.data_path},
                                                        {"set", options.set_name},
                                                        {"predictive", predictive_name(options)},
                                                        {"true_equation", equation.describe()},
                                                        {"learned_mean", learned_mean}},
                                                       per_experiment));
  std::printf("scored experiments: %lld of %s (%s set)\ntrue operator: %s\nlearned mean:  %s\n%s",
              static_cast<long long>(set.u.size(0)), options.data_path.c_str(),
              options.set_name.c_str(), equation.describe().c_str(), learned_mean.c_str(),
              eval::metrics_table(metrics).c_str());
  std::printf("metrics: %s\n", output.c_str());
  return 0;
}

}  // namespace bhpm::cli
