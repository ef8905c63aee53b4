// check_system_run (cli/system_run.h): what a system's run checks before any work.
#include <filesystem>
#include <string>
#include <vector>

#include "cli/pipeline_checks.h"
#include "cli/system_learning.h"
#include "cli/system_run.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "pde/system_dataset_file.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

/// The held-out experiments of the run's data: the simulation's, RUN_DIR/data.h5's or
/// run.data's test set (0 when it has none).
std::int64_t system_held_out_experiments(const config::SystemConfig& config,
                                         const config::RunLayout& run) {
  const std::string& data = config.pipeline.data;
  if (data.empty()) return config.test_experiments;
  return pde::system_set_experiments(fs::exists(run.data()) ? run.data() : data, "test");
}

/// A held-out set for the evaluate stage and the predicted experiments among it.
void require_system_held_out(const config::SystemConfig& config, const config::RunLayout& run) {
  const config::PipelineConfig& pipeline = config.pipeline;
  const bool evaluates = pipeline.runs("evaluate"), predicts = pipeline.runs("predict");
  if (!evaluates && (!predicts || pipeline.predict_experiments.empty())) return;
  const std::int64_t held_out = system_held_out_experiments(config, run);
  if (evaluates && held_out == 0)
    throw config::ConfigError(config.field("run.stages") +
                              ": the evaluate stage scores the held-out experiments, and the "
                              "data have none");
  for (const std::int64_t e : predicts ? pipeline.predict_experiments : std::vector<std::int64_t>{})
    if (e >= held_out)
      throw config::ConfigError(config.field("run.predict_experiments") + ": experiment " +
                                std::to_string(e) + " is not among the " +
                                std::to_string(held_out) + " held-out experiments");
}

}  // namespace

bool system_run_data_measured_only(const config::SystemConfig& config) {
  const std::string& data = config.pipeline.data;
  return !data.empty() && fs::is_regular_file(data) &&
         pde::read_system_dataset_metadata(data).measured_only();
}

void check_system_run(const config::SystemConfig& config, const config::RunLayout& run,
                      const std::string& source) {
  const config::PipelineConfig& pipeline = config.pipeline;
  const std::string& data = pipeline.data;
  if (!data.empty() && !fs::is_regular_file(data))
    throw config::ConfigError(config.field("run.data") + ": " + data +
                              " does not exist (make it with `bhpm simulate`)");
  if (data.empty() && pipeline.runs("simulate")) config::require_equations(config);
  if (!data.empty()) {
    const pde::SystemDatasetMetadata metadata = pde::read_system_dataset_metadata(data);
    require_same_system(metadata, data, config.system, source);
    if (metadata.measured_only() && pipeline.runs("predict") &&
        !pipeline.predict_experiments.empty())
      throw config::ConfigError(config.field("run.predict_experiments") + ": " + data +
                                " holds measurements only (no held-out solution grid to start "
                                "from and score against); set it to [] and predict "
                                "run.predict_ic_files instead");
  }
  for (const std::string& file : pipeline.predict_ic_files)
    if (pipeline.runs("predict") && !fs::is_regular_file(file))
      throw config::ConfigError(config.field("run.predict_ic_files") + ": " + file +
                                " does not exist");
  require_system_held_out(config, run);
  require_produced_inputs(pipeline, {{"train", {"simulate", run.data()}},
                                     {"calibrate", {"train", run.system_model()}},
                                     {"evaluate", {"simulate", run.data()}},
                                     {"evaluate", {"train", run.system_model()}},
                                     {"distill", {"train", run.system_model()}},
                                     {"predict", {"train", run.system_model()}}});
  if (fs::exists(run.data()) && !data.empty()) refuse_other_copy(run.data(), data);
  if (fs::exists(run.data()) && data.empty())
    refuse_if_foreign(run.data(), config::stored_hdf5_config(run.data()), config.resolved_toml,
                      config::data_sections());
  if (fs::exists(run.system_model()))
    refuse_if_foreign(run.system_model(), config::stored_checkpoint_config(run.system_model()),
                      config.resolved_toml, config::system_model_sections());
}

}  // namespace bhpm::cli
