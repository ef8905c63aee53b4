#pragma once
/// What `bhpm fit-leaves` and `bhpm train` share: their command-line options and how
/// they turn them into a configuration and the leaves' data.
///   CONFIG.toml --data TRAIN.h5 -o RUN_DIR [--experiments N] [--points n_st]
///   [--set section.key=value ...] [-q]

#include <cstdint>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "model/leaf_data.h"

namespace CLI {
class App;
}

namespace bhpm::cli {

struct TrainingCommandOptions {
  std::string config_path;
  std::string data_path;
  std::string run_dir;
  std::int64_t experiments = 0;  ///< N; 0 = every training experiment in the file
  std::int64_t points = 0;       ///< n_st; 0 = every measured point
  std::vector<std::string> overrides;
  bool quiet = false;
};

/// Adds the shared options to `command`, writing into `options`.
void add_training_options(CLI::App& command, TrainingCommandOptions& options);

struct TrainingInputs {
  config::RunConfig config;
  model::LeafData data;  ///< N experiments x n_st points of the file's training set
};

/// Reads the configuration (overrides applied) and the training set, checks N and n_st
/// against the file, creates RUN_DIR and switches to every core. Throws with the file,
/// the field and the rule.
TrainingInputs load_training_inputs(const TrainingCommandOptions& options);

}  // namespace bhpm::cli
