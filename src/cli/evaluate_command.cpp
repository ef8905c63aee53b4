#include "cli/evaluate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "cli/number_checks.h"
#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "cli/system_learning.h"
#include "cli/training_printer.h"
#include "config/run_layout.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "model/bhpm_model.h"
#include "pde/dataset_file.h"
#include "pipeline/operator_scorings.h"
#include "pipeline/run_folder.h"
#include "util/device.h"

namespace bhpm::cli {

namespace {

/// What the metrics score: "f + sigma_f^2" (a measured u_t) or "f" (the operator alone).
std::string predictive_name(const EvaluateOptions& options) {
  return options.function_only ? "f" : "f + sigma_f^2";
}

/// "<dir>/<stem><suffix>.json" beside `path` (metrics.json -> metrics-leaves.json).
std::string sibling(const std::string& path, const std::string& suffix) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}

/// The experiments `options` scores.
pipeline::ScoredSet scored_set(const EvaluateOptions& options) {
  return {options.data_path, options.set_name, options.max_points, options.experiments,
          options.function_only};
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
  add_override_option(*command, options->overrides,
                      "Override a setting of the run's configuration, e.g. "
                      "train_leaves.iterations=2000 for the held-out leaves (repeatable)");
  add_setting_flag(*command, options->overrides, "--device", "compute.device",
                   "Where the held-out leaves train and the root is evaluated: cpu, cuda or "
                   "cuda:N");
  command->add_flag("-q,--quiet", options->quiet, "No progress of the held-out leaves' fit");
  command->callback([options] { throw CLI::RuntimeError(run_evaluate(*options)); });
}

int run_evaluate(const EvaluateOptions& options) {
  if (holds_a_system(options.run_dir)) return run_system_evaluation(options);
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.held_out_metrics()
                                 : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm evaluate");
  io::require_output_folder(output);
  pipeline::TrainedRun run = pipeline::load_trained_run(options.run_dir, options.overrides);
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
    const pipeline::Scoring truth = pipeline::truth_scoring(scored_set(options), *run.root);
    pipeline::write_scoring(output, truth, context);
    columns.emplace_back("truth", truth.metrics);
    std::printf("true operator: %s\n", truth.true_equation.c_str());
  }
  if (!has_truth || options.truth_free) {
    const pipeline::HeldOutFit fit = pipeline::fit_scored_leaves(
        scored_set(options), run.config,
        options.quiet ? model::TrainingCallback{} : training_printer(false));
    const pipeline::Scoring free =
        pipeline::leaf_target_scoring(scored_set(options), *run.root, fit);
    pipeline::write_scoring(has_truth ? sibling(output, "-truth-free") : output, free, context);
    const pipeline::Scoring leaves = pipeline::kept_back_scoring(fit);
    pipeline::write_scoring(
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
