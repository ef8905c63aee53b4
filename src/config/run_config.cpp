#include "config/run_config.h"

#include <filesystem>

#include "config/run_layout.h"

namespace bhpm::config {

namespace {

RunConfig read_all(ConfigReader& reader, const std::string& base_dir,
                   const std::vector<std::string>& overrides) {
  for (const auto& assignment : overrides) reader.apply_override(assignment);
  if (reader.given_sections().count("system"))
    throw ConfigError(reader.source() +
                      ": [system] describes a field system, which this command does not read yet "
                      "(docs/systems.md lists the commands that do)");
  RunConfig config;
  config.simulate = read_simulate_config(reader, base_dir);
  config.leaves = read_leaf_config(reader);
  config.root = read_root_config(reader);
  config.predict = read_predict_config(reader);
  config.predict.options.seed = config.simulate.seed;
  config.distill = read_distill_config(reader);
  config.compute = read_compute_config(reader);
  config.pipeline = read_pipeline_config(reader, base_dir);
  config.refinement_study = read_refinement_study_config(reader, config.simulate.seed);
  config.given_sections = reader.given_sections();
  reader.reject_unknown_keys();
  config.resolved_toml = reader.resolved_toml();
  config.field = reader.field_names();
  config.leaves.training.seed = config.simulate.seed;
  config.leaves.model.network.seed = config.simulate.seed;
  config.leaves.training.config = config.resolved_toml;
  return config;
}

}  // namespace

RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  ConfigReader reader = ConfigReader::from_file(path);
  return read_all(reader, std::filesystem::path(path).parent_path().string(), overrides);
}

RunConfig read_run_config_text(const std::string& text, const std::string& source,
                               const std::string& base_dir,
                               const std::vector<std::string>& overrides) {
  ConfigReader reader = ConfigReader::from_string(text, source);
  return read_all(reader, base_dir, overrides);
}

model::BhpmTrainingOptions bhpm_training_options(const RunConfig& config, std::int64_t experiments,
                                                 const std::string& run_dir) {
  model::BhpmTrainingOptions options;
  options.leaves = config.leaves.model;
  options.leaves.network.leaves = experiments;
  options.leaf_training = config.leaves.training;
  options.root = config.root.root;
  options.exact_training = config.root.exact_training;
  options.joint_training = config.root.joint_training;
  options.seed = config.simulate.seed;
  options.device = config.compute.device;
  if (!run_dir.empty()) {
    const RunLayout run{run_dir};
    options.leaf_training.checkpoint_path = run.leaves_checkpoint();
    options.exact_training.checkpoint_path = run.exact_gp_checkpoint();
    options.joint_training.checkpoint_path = run.joint_checkpoint();
    options.leaf_training.history_path = run.history("leaves");
    options.exact_training.history_path = run.history("exact_gp");
    options.joint_training.history_path = run.history("joint");
  }
  options.config = config.resolved_toml;
  return options;
}

}  // namespace bhpm::config
