#include "cli/training_inputs.h"

#include <CLI/CLI.hpp>

#include <filesystem>

#include "cli/process_setup.h"
#include "pde/dataset_file.h"

namespace bhpm::cli {

void add_training_options(CLI::App& command, TrainingCommandOptions& options) {
  command.add_option("config", options.config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--data", options.data_path, "Dataset from `bhpm simulate` (HDF5)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("-o,--output", options.run_dir, "Run folder (created if missing)")->required();
  command
      .add_option("--experiments", options.experiments,
                  "N: use the first N training experiments (default: all)")
      ->check(CLI::NonNegativeNumber);
  command
      .add_option("--points", options.points,
                  "n_st: use the first n_st measurements of each (default: all)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--set", options.overrides,
                     "Override a configuration value: section.key=value (repeatable)");
  command.add_flag("-q,--quiet", options.quiet, "No progress on stderr");
}

TrainingInputs load_training_inputs(const TrainingCommandOptions& options) {
  TrainingInputs inputs{config::read_run_config(options.config_path, options.overrides), {}};
  const pde::ExperimentSet set = pde::read_experiment_set(options.data_path, "train");
  const std::int64_t n = options.experiments > 0 ? options.experiments : set.sample_u.size(0);
  const std::int64_t points = options.points > 0 ? options.points : set.sample_u.size(1);
  inputs.data = model::leaf_data_from_set(set, n, points, options.data_path + ":/train");
  std::filesystem::create_directories(options.run_dir);
  use_threads(0);  // training is compute-bound: every core
  return inputs;
}

}  // namespace bhpm::cli
