#include "cli/pipeline_checks.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "pde/dataset_file.h"
#include "pipeline/simulation_checks.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

bool same_bytes(const std::string& a, const std::string& b) {
  if (fs::file_size(a) != fs::file_size(b)) return false;
  std::ifstream first(a, std::ios::binary), second(b, std::ios::binary);
  return std::equal(std::istreambuf_iterator<char>(first), std::istreambuf_iterator<char>(),
                    std::istreambuf_iterator<char>(second));
}

void require_section(const config::RunConfig& config, const std::string& source,
                     const std::string& section, const std::string& why) {
  if (!config.given_sections.count(section))
    throw config::ConfigError(source + ": missing section [" + section + "]: " + why);
}

/// The held-out experiments the predict stage can solve: the simulation's test set, or
/// run.data's (from their stored truth, or measurements only on their own windows).
std::int64_t predictable_experiments(const config::RunConfig& config) {
  const std::string& data = config.pipeline.data;
  if (data.empty()) return config.simulate.test_experiments;
  return pde::dataset_experiments(data, "test");
}

/// run.data must name a readable dataset; its name is kept in errors.
void require_dataset(const config::RunConfig& config) {
  const std::string& data = config.pipeline.data;
  if (!fs::is_regular_file(data))
    throw config::ConfigError(config.field("run.data") + ": " + data +
                              " does not exist (make it with "
                              "`bhpm import` or `bhpm simulate`)");
  try {
    pde::read_dataset_metadata(data);
  } catch (const std::exception& error) {
    throw config::ConfigError(config.field("run.data") + ": " + error.what());
  }
}

/// The held-out experiments of a dataset are solved on its own kind of domain: a bounded
/// configuration predicts a bounded set's, a periodic one a periodic set's.
void require_matching_domain(const config::RunConfig& config) {
  const std::string& data = config.pipeline.data;
  if (data.empty() || config.pipeline.predict_experiments.empty() ||
      pde::read_dataset_metadata(data).format_version != 1 ||
      pde::dataset_experiments(data, "test") == 0)
    return;  // measurements only, or no held-out set: predictable_experiments says so
  const bool bounded_data = !pde::dataset_conditions(data, "test").empty();
  if (bounded_data != config.simulate.bounded())
    throw config::ConfigError(
        config.field("run.predict_experiments") + ": the held-out experiments of " + data +
        " are on a " + (bounded_data ? "bounded" : "periodic") +
        " domain and domain.boundary = \"" + config.simulate.boundary + "\" predicts on a " +
        (bounded_data ? "periodic" : "bounded") +
        " one; set domain.boundary as the data were "
        "simulated, or predict_experiments = [] and give initial conditions with "
        "run.predict_ic_files");
}

void require_complete_configuration(const config::RunConfig& config, const std::string& source) {
  const config::PipelineConfig& pipeline = config.pipeline;
  if (!pipeline.data.empty()) require_dataset(config);
  if (pipeline.runs("simulate") && pipeline.data.empty()) {
    require_section(config, source, "equation", "the simulate stage needs the PDE to simulate");
    require_section(config, source, "data",
                    "the simulate stage needs the experiments to draw (train_experiments, "
                    "test_experiments, n_st, noise)");
    pipeline::require_simulable(config);
  }
  if (!pipeline.data.empty() && pipeline.runs("calibrate") &&
      config.predict.calibration_method == "trajectories" &&
      pde::read_dataset_metadata(pipeline.data).format_version != 1)
    throw config::ConfigError(config.field("predict.calibration_method") +
                              " = \"trajectories\": " + pipeline.data +
                              " holds measurements only (dataset format_version 2), and that "
                              "method predicts the training experiments' solution grids; use "
                              "\"operator\"");
  for (const std::string& file : pipeline.predict_ic_files)
    if (pipeline.runs("predict") && !fs::is_regular_file(file))
      throw config::ConfigError(config.field("run.predict_ic_files") + ": " + file +
                                " does not exist");
  if (pipeline.runs("refinement"))
    require_section(config, source, "refinement_study", "the refinement stage needs its settings");
  if (!pipeline.runs("predict")) return;
  const std::int64_t held_out = predictable_experiments(config);
  require_matching_domain(config);
  for (const std::int64_t e : pipeline.predict_experiments)
    if (e >= held_out)
      throw config::ConfigError(config.field("run.predict_experiments") + ": experiment " +
                                std::to_string(e) + " is not among the " +
                                std::to_string(held_out) + " held-out experiments of " +
                                (pipeline.data.empty() ? "data.test_experiments" : pipeline.data));
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
  const std::multimap<std::string, StageInput> inputs = {
      {"train", {"simulate", run.data()}}, {"calibrate", {"simulate", run.data()}},
      {"calibrate", {"train", joint}},     {"evaluate", {"simulate", run.data()}},
      {"evaluate", {"train", joint}},      {"predict", {"simulate", run.data()}},
      {"predict", {"train", joint}}};
  require_produced_inputs(config.pipeline, inputs);
}

void require_produced_inputs(const config::PipelineConfig& pipeline,
                             const std::multimap<std::string, StageInput>& inputs) {
  for (const auto& [stage, input] : inputs) {
    const auto& [producer, path] = input;
    if (pipeline.runs(stage) && !pipeline.runs(producer) && !fs::exists(path))
      throw std::runtime_error("run: the " + stage + " stage needs " + path +
                               ", which is missing, and run.stages does not include " + producer);
  }
}

void refuse_foreign_outputs(const config::RunConfig& config, const config::RunLayout& run) {
  const std::string& current = config.resolved_toml;
  if (fs::exists(run.data()) && !config.pipeline.data.empty())
    refuse_other_copy(run.data(), config.pipeline.data);
  if (fs::exists(run.data()) && config.pipeline.data.empty())
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

void refuse_other_copy(const std::string& copy, const std::string& source) {
  if (!same_bytes(copy, source))
    throw std::runtime_error(copy + " is not a copy of run.data = " + source +
                             "; give `bhpm run` a new folder (-o) or remove that file");
}

void refuse_if_foreign(const std::string& path, const std::string& stored,
                       const std::string& current, const std::vector<std::string>& sections) {
  const std::vector<std::string> differences =
      config::stored_differences(path, stored, current, sections);
  if (differences.empty()) return;
  throw std::runtime_error(path + " was made by another configuration (" +
                           config::listed_differences(differences) +
                           "); give `bhpm run` a new folder (-o) or remove that file");
}

}  // namespace bhpm::cli
