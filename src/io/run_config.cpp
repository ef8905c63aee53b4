#include "io/run_config.h"

#include <filesystem>

namespace bhpm::io {

RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides) {
  ConfigReader reader = ConfigReader::from_file(path);
  for (const auto& assignment : overrides) reader.apply_override(assignment);
  RunConfig config;
  config.simulate = read_simulate_config(reader, std::filesystem::path(path).parent_path().string());
  config.leaves = read_leaf_config(reader);
  config.root = read_root_config(reader);
  reader.reject_unknown_keys();
  config.resolved_toml = reader.resolved_toml();
  config.leaves.training.seed = config.simulate.seed;
  config.leaves.model.network.seed = config.simulate.seed;
  config.leaves.training.config = config.resolved_toml;
  return config;
}

model::BhpmTrainingOptions bhpm_training_options(const RunConfig& config,
                                                 std::int64_t experiments,
                                                 const std::string& run_dir) {
  model::BhpmTrainingOptions options;
  options.leaves = config.leaves.model;
  options.leaves.network.leaves = experiments;
  options.leaf_training = config.leaves.training;
  options.root = config.root.root;
  options.exact_training = config.root.exact_training;
  options.joint_training = config.root.joint_training;
  options.seed = config.simulate.seed;
  options.run_dir = run_dir;
  options.config = config.resolved_toml;
  return options;
}

}  // namespace bhpm::io
