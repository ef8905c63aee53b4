#include "cli/simulate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "cli/setting_flags.h"
#include "cli/simulation_progress.h"
#include "cli/system_simulation.h"
#include "config/run_config.h"
#include "config/system_config.h"
#include "io/atomic_file.h"
#include "pde/bounded_experiment_set.h"
#include "pde/dataset_file.h"
#include "pde/experiment_set.h"
#include "pipeline/simulation_checks.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

pde::ExperimentSetOptions set_options(const config::SimulateConfig& config, const std::string& name,
                                      std::int64_t experiments) {
  pde::ExperimentSetOptions options;
  options.name = name;
  options.experiments = experiments;
  options.seed = config.seed;
  options.initial_condition = config.initial_condition;
  options.measurements = config.measurements;
  options.solve = config.solve;
  return options;
}

}  // namespace

void setup_simulate(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand(
      "simulate", "Simulate train and test experiments of a PDE and write them to HDF5");
  command->add_option("config", options->config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output_path, "Output HDF5 file")->required();
  add_override_option(*command, options->overrides,
                      "Override a configuration value: section.key=value (repeatable)");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command->callback([options] { throw CLI::RuntimeError(run_simulate(*options)); });
}

namespace {

/// The train and test sets: on the periodic grid, or on the bounded domain's Chebyshev
/// points under its conditions (pde/bounded_experiment_set.h).
std::vector<pde::ExperimentSet> simulate_sets(const config::SimulateConfig& config,
                                              const pde::Equation& equation, bool quiet) {
  std::vector<std::pair<std::string, std::int64_t>> wanted = {{"train", config.train_experiments}};
  if (config.test_experiments > 0) wanted.emplace_back("test", config.test_experiments);
  std::vector<pde::ExperimentSet> sets;
  if (config.bounded()) {
    const pde::ChebyshevGrid grid = config.bounded_grid();
    for (const auto& [name, count] : wanted)
      sets.push_back(pde::simulate_bounded_experiment_set(
          grid, config.modes, equation, config.conditions, set_options(config, name, count)));
    return sets;
  }
  const pde::PeriodicGrid grid(config.x_min, config.x_max, config.modes);
  SimulationProgress progress(quiet);
  for (const auto& [name, count] : wanted)
    sets.push_back(pde::simulate_experiment_set(grid, equation, set_options(config, name, count),
                                                std::ref(progress)));
  return sets;
}

}  // namespace

int run_simulate(const SimulateOptions& options) {
  if (config::configures_a_system(options.config_path, options.overrides))
    return run_system_simulation(options.config_path, options.output_path, options.overrides,
                                 options.quiet);
  const config::RunConfig run = config::read_run_config(options.config_path, options.overrides);
  const config::SimulateConfig& config = run.simulate;
  pipeline::require_simulable(run);
  io::require_output_folder(options.output_path);

  const pde::Equation equation = pde::make_equation(config.equation);
  const util::Stopwatch stopwatch;
  const std::vector<pde::ExperimentSet> sets = simulate_sets(config, equation, options.quiet);
  pde::DatasetMetadata metadata;
  metadata.equation = equation.describe();
  metadata.config = run.resolved_toml;
  metadata.created_by = "bhpm " BHPM_VERSION " simulate";
  pde::write_dataset(options.output_path, sets, metadata);
  const double seconds = stopwatch.seconds();
  const std::string grid = config.bounded()
                               ? std::to_string(config.intervals + 1) + " Chebyshev points (" +
                                     pde::describe(config.conditions) + ")"
                               : std::to_string(config.modes);
  std::printf(
      "wrote %s: %s, train %lld + test %lld experiments, grid %lld x %s, n_st %lld, "
      "dt %.3g (%lld steps, %lld rejected), %.2f s\n",
      options.output_path.c_str(), equation.describe().c_str(),
      static_cast<long long>(config.train_experiments),
      static_cast<long long>(config.test_experiments),
      static_cast<long long>(sets.front().t.size(0)), grid.c_str(),
      static_cast<long long>(config.measurements.n_st), sets.front().dt,
      static_cast<long long>(sets.front().steps),
      static_cast<long long>(sets.front().rejected_steps), seconds);
  return 0;
}

}  // namespace bhpm::cli
