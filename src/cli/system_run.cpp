#include "cli/system_run.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli/distill_command.h"
#include "cli/evaluate_command.h"
#include "cli/predict_command.h"
#include "cli/run_command.h"
#include "cli/stage_outputs.h"
#include "cli/system_calibration_command.h"
#include "cli/system_learning.h"
#include "cli/system_prediction_command.h"
#include "cli/system_simulation.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "pde/system_dataset_file.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

struct SystemPipeline {
  const RunCommandOptions& options;
  const config::SystemConfig& config;
  const config::RunLayout& run;
};

/// The run's overrides of [section] alone: the later steps read the trained model's stored
/// configuration, which the run's checks hold equal to this one in every other section.
std::vector<std::string> section_overrides(const SystemPipeline& p, const std::string& section) {
  std::vector<std::string> kept;
  for (const std::string& assignment : p.options.overrides)
    if (assignment.rfind(section + ".", 0) == 0) kept.push_back(assignment);
  return kept;
}

void system_simulate_stage(const SystemPipeline& p) {
  if (!p.config.pipeline.data.empty()) return copy_dataset(p.config.pipeline.data, p.run.data());
  if (fs::exists(p.run.data())) return announce("simulate: up to date (" + p.run.data() + ")");
  announce("simulate -> " + p.run.data());
  run_system_simulation(p.options.config_path, p.run.data(), p.options.overrides, p.options.quiet);
}

void system_train_stage(const SystemPipeline& p) {
  const std::string model = p.run.system_model();
  if (config::up_to_date(model, {p.run.data()}))
    return announce("train: up to date (" + model + ")");
  announce("train -> " + model);
  run_system_training(train_stage_options(p.options, p.run));
}

/// The training experiments of the run's data.
std::int64_t system_training_experiments(const SystemPipeline& p) {
  const std::string& data = p.config.pipeline.data;
  if (data.empty()) return p.config.train_experiments;
  return pde::system_set_experiments(p.run.data(), "train");
}

void system_calibrate_stage(const SystemPipeline& p) {
  const std::string output = p.run.system_calibration();
  if (system_training_experiments(p) < 2)
    return announce(
        "calibrate: skipped: one training experiment, none to leave out (the "
        "predictions' bands stay uncalibrated)");
  if (config::up_to_date(output, {p.run.system_model()}))
    return announce("calibrate: up to date (" + output + ")");
  announce("calibrate: each field's spread on the training experiments left out -> " + output);
  CalibrateCommandOptions calibrate;
  calibrate.run_dir = p.run.dir;
  calibrate.overrides = section_overrides(p, "predict");
  calibrate.quiet = p.options.quiet;
  run_system_calibration(calibrate);
}

void system_evaluate_stage(const SystemPipeline& p) {
  const std::string output = p.run.held_out_metrics();
  if (config::up_to_date(output, {p.run.data(), p.run.system_model()}))
    return announce("evaluate: up to date (" + output + ")");
  const std::string points = std::to_string(kSystemRunEvaluationPoints);
  announce(system_run_data_measured_only(p.config)
               ? "evaluate: held-out experiments against new leaves of their measurements, at "
                 "up to " +
                     points + " points (no truth) -> " + output
               : "evaluate: held-out experiments at up to " + points + " grid points -> " + output);
  EvaluateOptions evaluate;
  evaluate.run_dir = p.run.dir;
  evaluate.data_path = p.run.data();
  evaluate.output_path = output;
  evaluate.max_points = kSystemRunEvaluationPoints;
  evaluate.quiet = p.options.quiet;
  run_system_evaluation(evaluate);
}

void system_distill_stage(const SystemPipeline& p) {
  const std::string output = p.run.distillation();
  if (config::up_to_date(output, {p.run.system_model()}))
    return announce("distill: up to date (" + output + ")");
  announce("distill: each field's operator as an equation -> " + output);
  DistillCommandOptions distill;
  distill.run_dir = p.run.dir;
  distill.overrides = section_overrides(p, "distill");
  distill.quiet = p.options.quiet;
  run_system_distillation(distill);
}

/// One prediction into `output` unless it is newer than the model and `inputs`;
/// `initial` sets the initial fields on the options.
template <typename SetInitial>
void system_predict_into(const SystemPipeline& p, const std::string& output,
                         std::vector<std::string> inputs, const std::string& what,
                         SetInitial initial) {
  inputs.push_back(p.run.system_model());
  if (fs::exists(p.run.system_calibration())) inputs.push_back(p.run.system_calibration());
  if (config::up_to_date(output, inputs)) return announce("predict: up to date (" + output + ")");
  announce("predict: " + what + " -> " + output);
  PredictCommandOptions predict;
  predict.run_dir = p.run.dir;
  predict.output_path = output;
  predict.overrides = section_overrides(p, "predict");
  predict.quiet = p.options.quiet;
  initial(predict);
  run_system_prediction(predict);
}

void system_predict_stage(const SystemPipeline& p) {
  for (const std::int64_t e : p.config.pipeline.predict_experiments)
    system_predict_into(p, p.run.prediction(e), {p.run.data()},
                        "held-out experiment " + std::to_string(e), [&](PredictCommandOptions& o) {
                          o.initial_from = p.run.data() + ":test/" + std::to_string(e);
                        });
  for (const std::string& file : p.config.pipeline.predict_ic_files)
    system_predict_into(p, p.run.prediction_from_file(fs::path(file).stem().string()), {file},
                        "initial fields of " + file,
                        [&](PredictCommandOptions& o) { o.initial_file = file; });
}

void system_report_stage(const SystemPipeline& p) { report_stage(p.options, p.run); }

}  // namespace

void run_system_stage(const std::string& stage, const RunCommandOptions& options,
                      const config::SystemConfig& config, const config::RunLayout& run) {
  static const std::map<std::string, void (*)(const SystemPipeline&)> stages = {
      {"simulate", system_simulate_stage},   {"train", system_train_stage},
      {"calibrate", system_calibrate_stage}, {"evaluate", system_evaluate_stage},
      {"distill", system_distill_stage},     {"predict", system_predict_stage},
      {"report", system_report_stage}};
  stages.at(stage)({options, config, run});
}

}  // namespace bhpm::cli
