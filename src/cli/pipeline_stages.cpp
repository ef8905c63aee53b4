#include "cli/pipeline_stages.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli/calibrate_command.h"
#include "cli/distill_command.h"
#include "cli/evaluate_command.h"
#include "cli/predict_command.h"
#include "cli/prediction_stage.h"
#include "cli/refinement_command.h"
#include "cli/simulate_command.h"
#include "cli/stage_outputs.h"
#include "cli/train_command.h"
#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "pde/dataset_file.h"
#include "pipeline/calibration_from_measurements.h"
#include "solve/discrepancy_calibration.h"
#include "util/error_message.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

void simulate_stage(const Pipeline& p) {
  if (!p.config.pipeline.data.empty()) return copy_dataset(p.config.pipeline.data, p.run.data());
  if (fs::exists(p.run.data())) return announce("simulate: up to date (" + p.run.data() + ")");
  announce("simulate -> " + p.run.data());
  run_simulate({p.options.config_path, p.run.data(), p.options.overrides, p.options.quiet});
}

void train_stage(const Pipeline& p) {
  if (config::up_to_date(p.run.root(), {p.run.data(), p.run.joint_checkpoint()}))
    return announce("train: up to date (" + p.run.root() + ")");
  announce("train -> " + p.run.dir + " (resumes from its checkpoints)");
  run_train(train_stage_options(p.options, p.run));
}

void calibrate_stage(const Pipeline& p) {
  const std::string output = p.run.discrepancy();
  const std::string method =
      pipeline::resolved_calibration_method(p.config.predict.calibration_method, p.run.data());
  const std::string refusal = method != "trajectories"
                                  ? pipeline::operator_calibration_refusal(p.run.data())
                                  : std::string();
  if (!refusal.empty()) return announce("calibrate: skipped: " + refusal);
  if (config::up_to_date(output, {p.run.data(), p.run.root()}) &&
      same_settings(
          p, output, [&] { return solve::read_discrepancy_file(output).config; },
          config::prediction_sections()))
    return announce("calibrate: up to date (" + output + ")");
  announce("calibrate: model discrepancy on the training experiments' " +
           std::string(method == "trajectories" ? "solution grids" : "measurements") + " -> " +
           output);
  run_calibrate(
      {p.run.dir, p.run.data(), p.options.config_path, p.options.overrides, p.options.quiet});
}

/// `bhpm evaluate` of set `set_name` of the run's data, written to `output`.
EvaluateOptions evaluation(const Pipeline& p, const std::string& output,
                           const std::string& set_name) {
  EvaluateOptions options;
  options.run_dir = p.run.dir;
  options.data_path = p.run.data();
  options.output_path = output;
  options.set_name = set_name;
  options.quiet = p.options.quiet;
  return options;
}

void evaluate_stage(const Pipeline& p) {
  const std::vector<std::string> inputs = {p.run.data(), p.run.root()};
  const auto current = [&](const std::string& metrics) {
    return config::up_to_date(metrics, inputs) &&
           reads_back(metrics, [&] { eval::read_operator_scores(metrics); });
  };
  const bool held_out_current = current(p.run.held_out_metrics());
  if (held_out_current && current(p.run.training_metrics()))
    return announce("evaluate: up to date (" + p.run.held_out_metrics() + ", " +
                    p.run.training_metrics() + ")");
  if (held_out_current && !has_solution_grids(p))
    return announce("evaluate: up to date (" + p.run.held_out_metrics() + ")");
  announce("evaluate: held-out experiments -> " + p.run.held_out_metrics());
  run_evaluate(evaluation(p, p.run.held_out_metrics(), "test"));
  if (!has_solution_grids(p))
    return announce("evaluate: the training experiments have no solution grids to score on (" +
                    p.run.data() + " holds measurements only)");
  announce("evaluate: training experiments' whole grids -> " + p.run.training_metrics());
  run_evaluate(evaluation(p, p.run.training_metrics(), "train"));
}

void distill_stage(const Pipeline& p) {
  const std::string output = p.run.distillation();
  if (config::up_to_date(output, {p.run.root()}) &&
      same_settings(
          p, output, [&] { return eval::read_distillation_file(output).config; },
          config::distillation_sections()))
    return announce("distill: up to date (" + output + ")");
  announce("distill: the learned operator as an equation -> " + output);
  DistillCommandOptions distill;
  distill.run_dir = p.run.dir;
  // data_path stays empty: distill takes RUN_DIR/data.h5's equation as the truth when it has one
  distill.config_path = p.options.config_path;
  distill.overrides = p.options.overrides;
  distill.quiet = p.options.quiet;
  run_distill(distill);
}

void refinement_stage(const Pipeline& p) {
  const std::string output = p.run.refinement();
  if (fs::exists(output) &&
      config::stored_differences(output, config::stored_hdf5_config(output), p.config.resolved_toml,
                                 config::refinement_sections())
          .empty())
    return announce("refinement: up to date (" + output + ")");
  announce("refinement: the Fig. 3 study -> " + output);
  RefinementCommandOptions study;
  study.study = p.config.refinement_study;
  study.output_path = output;
  study.config = p.config.resolved_toml;
  study.quiet = p.options.quiet;
  run_refinement(study);
}

void run_report_stage(const Pipeline& p) { report_stage(p.options, p.run); }

}  // namespace

bool has_solution_grids(const Pipeline& p) {
  return pde::read_dataset_metadata(p.run.data()).format_version == 1;
}

const std::map<std::string, std::function<void(const Pipeline&)>>& stage_runners() {
  static const std::map<std::string, std::function<void(const Pipeline&)>> runners = {
      {"simulate", simulate_stage},     {"train", train_stage},      {"calibrate", calibrate_stage},
      {"evaluate", evaluate_stage},     {"distill", distill_stage},  {"predict", predict_stage},
      {"refinement", refinement_stage}, {"report", run_report_stage}};
  return runners;
}

}  // namespace bhpm::cli
