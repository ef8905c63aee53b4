#include "cli/prediction_stage.h"

#include <filesystem>

#include "cli/predict_command.h"
#include "cli/stage_outputs.h"
#include "config/run_layout.h"

namespace bhpm::cli {

namespace fs = std::filesystem;

namespace {

/// True when `output` exists, is newer than its inputs, reads back and was made by the
/// same prediction settings.
bool prediction_up_to_date(const Pipeline& p, const std::string& output,
                           std::vector<std::string> inputs) {
  inputs.insert(inputs.end(), {p.run.data(), p.run.root()});
  if (fs::exists(p.run.discrepancy())) inputs.push_back(p.run.discrepancy());
  return config::up_to_date(output, inputs) &&
         same_settings(
             p, output, [&] { return config::stored_hdf5_config(output); },
             config::prediction_sections());
}

/// `bhpm predict` into `output` with the run's configuration; the initial condition is
/// set by the caller.
PredictCommandOptions prediction(const Pipeline& p, const std::string& output) {
  PredictCommandOptions predict;
  predict.run_dir = p.run.dir;
  predict.output_path = output;
  predict.config_path = p.options.config_path;
  predict.overrides = p.options.overrides;
  predict.quiet = p.options.quiet;
  return predict;
}

}  // namespace

void predict_stage(const Pipeline& p) {
  const bool grids = has_solution_grids(p);
  for (const std::int64_t e : p.config.pipeline.predict_experiments) {
    const std::string output = p.run.prediction(e);
    if (prediction_up_to_date(p, output, {})) {
      announce("predict: up to date (" + output + ")");
      continue;
    }
    const std::string held_out = "test/" + std::to_string(e);
    announce("predict: held-out experiment " + std::to_string(e) +
             (grids ? "" : " on its own window (measurements only)") + " -> " + output);
    PredictCommandOptions predict = prediction(p, output);
    if (grids)
      predict.initial_from = p.run.data() + ":" + held_out;
    else
      predict.window_from = held_out;
    run_predict(predict);
  }
  for (const std::string& file : p.config.pipeline.predict_ic_files) {
    const std::string output = p.run.prediction_from_file(fs::path(file).stem().string());
    if (prediction_up_to_date(p, output, {file})) {
      announce("predict: up to date (" + output + ")");
      continue;
    }
    announce("predict: initial condition " + file + " -> " + output);
    PredictCommandOptions predict = prediction(p, output);
    predict.initial_file = file;
    run_predict(predict);
  }
}

}  // namespace bhpm::cli
