#include "cli/training_inputs.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>

#include "cli/number_checks.h"
#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "pde/measured_dataset_file.h"
#include "util/device.h"

namespace bhpm::cli {

void add_training_options(CLI::App& command, TrainingCommandOptions& options) {
  command.add_option("config", options.config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--data", options.data_path, "Dataset from `bhpm simulate` or `bhpm import`")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("-o,--output", options.run_dir, "Run folder (created if missing)")->required();
  command
      .add_option("--experiments", options.experiments,
                  "N: use the first N training experiments (default: all)")
      ->check(non_negative());
  command
      .add_option("--points", options.points,
                  "n_st: use the first n_st measurements of each (default: all, or as many as "
                  "the experiment with fewest has)")
      ->check(non_negative());
  add_override_option(command, options.overrides,
                      "Override a configuration value: section.key=value (repeatable)");
  add_setting_flag(command, options.overrides, "--device", "compute.device",
                   "Where the leaves and the root train: cpu, cuda or cuda:N");
  command.add_flag("-q,--quiet", options.quiet, "No progress on stderr");
}

namespace {

/// Says so on stderr when some experiments hold more points than each leaf uses.
void note_unused_points(const std::vector<pde::MeasuredExperiment>& measured,
                        std::int64_t experiments, std::int64_t points, bool quiet) {
  std::int64_t unused = 0, total = 0;
  for (std::int64_t e = 0; e < experiments; ++e) {
    unused += measured[e].points() - points;
    total += measured[e].points();
  }
  if (unused > 0 && !quiet)
    std::fprintf(stderr,
                 "note: each leaf uses n_st = %lld points (a random subset of its experiment's); "
                 "%lld of the %lld measurements are not used\n",
                 static_cast<long long>(points), static_cast<long long>(unused),
                 static_cast<long long>(total));
}

}  // namespace

TrainingInputs load_training_inputs(const TrainingCommandOptions& options) {
  TrainingInputs inputs{config::read_run_config(options.config_path, options.overrides), {}};
  util::require_available(inputs.config.compute.device, "compute.device");
  const std::vector<pde::MeasuredExperiment> measured =
      pde::read_measured_set(options.data_path, "train");
  const auto n =
      options.experiments > 0 ? options.experiments : static_cast<std::int64_t>(measured.size());
  const std::int64_t points =
      options.points > 0 ? options.points : model::fewest_points(measured, n);
  inputs.data =
      model::leaf_data_from_measurements(measured, n, points, options.data_path + ":/train");
  note_unused_points(measured, n, points, options.quiet);
  std::filesystem::create_directories(options.run_dir);
  use_threads(0);  // training is compute-bound: every core
  return inputs;
}

}  // namespace bhpm::cli
