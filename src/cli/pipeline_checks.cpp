#include "cli/pipeline_checks.h"

#include <filesystem>
#include <map>
#include <stdexcept>

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

void require_section(const config::RunConfig& config, const std::string& source,
                     const std::string& section, const std::string& why) {
  if (!config.given_sections.count(section))
    throw config::ConfigError(source + ": missing section [" + section + "]: " + why);
}

void require_complete_configuration(const config::RunConfig& config, const std::string& source) {
  const config::PipelineConfig& pipeline = config.pipeline;
  if (pipeline.runs("simulate")) {
    require_section(config, source, "equation", "the simulate stage needs the PDE to simulate");
    require_section(config, source, "data",
                    "the simulate stage needs the experiments to draw (train_experiments, "
                    "test_experiments, n_st, noise)");
  }
  if (pipeline.runs("refinement"))
    require_section(config, source, "refinement_study", "the refinement stage needs its settings");
  if (!pipeline.runs("predict")) return;
  for (const std::int64_t e : pipeline.predict_experiments)
    if (e >= config.simulate.test_experiments)
      throw config::ConfigError(source + ": run.predict_experiments: experiment " +
                                std::to_string(e) + " is not among the data.test_experiments = " +
                                std::to_string(config.simulate.test_experiments) +
                                " held-out experiments");
}

void refuse_if_foreign(const std::string& path, const std::string& stored,
                       const std::string& current, const std::vector<std::string>& sections) {
  const std::vector<std::string> differences =
      config::stored_differences(path, stored, current, sections);
  if (differences.empty()) return;
  std::string listed;
  for (const auto& d : differences) listed += (listed.empty() ? "" : "; ") + d;
  throw std::runtime_error(path + " was made by another configuration (" + listed +
                           "); give `bhpm run` a new folder (-o) or remove that file");
}

}  // namespace

config::RunConfig read_pipeline_configuration(const std::string& config_path,
                                              const std::vector<std::string>& overrides) {
  config::RunConfig config = config::read_run_config(config_path, overrides);
  require_complete_configuration(config, config_path);
  return config;
}

void require_stage_inputs(const config::RunConfig& config, const config::RunLayout& run) {
  const std::string joint = run.joint_checkpoint();
  // stage -> (the stages that produce its inputs, the inputs)
  const std::multimap<std::string, std::pair<std::string, std::string>> inputs = {
      {"train", {"simulate", run.data()}}, {"calibrate", {"simulate", run.data()}},
      {"calibrate", {"train", joint}},     {"evaluate", {"simulate", run.data()}},
      {"evaluate", {"train", joint}},      {"predict", {"simulate", run.data()}},
      {"predict", {"train", joint}}};
  for (const auto& [stage, input] : inputs) {
    const auto& [producer, path] = input;
    if (config.pipeline.runs(stage) && !config.pipeline.runs(producer) && !fs::exists(path))
      throw std::runtime_error("run: the " + stage + " stage needs " + path +
                               ", which is missing, and run.stages does not include " + producer);
  }
}

void refuse_foreign_outputs(const config::RunConfig& config, const config::RunLayout& run) {
  const std::string& current = config.resolved_toml;
  if (fs::exists(run.data()))
    refuse_if_foreign(run.data(), config::stored_hdf5_config(run.data()), current,
                      config::data_sections());
  for (const auto& checkpoint : run.checkpoints())
    if (fs::exists(checkpoint))
      refuse_if_foreign(checkpoint, config::stored_checkpoint_config(checkpoint), current,
                        config::training_sections());
  if (fs::exists(run.root()))
    refuse_if_foreign(run.root(), config::stored_hdf5_config(run.root()), current,
                      config::training_sections());
}

}  // namespace bhpm::cli
