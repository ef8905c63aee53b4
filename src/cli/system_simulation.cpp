#include "cli/system_simulation.h"

#include <cstdio>
#include <utility>

#include "cli/simulation_progress.h"
#include "config/system_config.h"
#include "io/atomic_file.h"
#include "pde/system_dataset_file.h"
#include "pde/system_experiment_set.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

int run_system_simulation(const std::string& config_path, const std::string& output_path,
                          const std::vector<std::string>& overrides, bool quiet) {
  const config::SystemConfig config = config::read_system_config(config_path, overrides);
  config::require_equations(config);
  io::require_output_folder(output_path);
  const pde::PeriodicBox box = config.box();
  std::vector<std::pair<std::string, std::int64_t>> wanted = {{"train", config.train_experiments}};
  if (config.test_experiments > 0) wanted.emplace_back("test", config.test_experiments);

  const util::Stopwatch stopwatch;
  SimulationProgress progress(quiet);
  std::vector<pde::SystemExperimentSet> sets;
  for (const auto& [name, count] : wanted) {
    pde::SystemSetOptions options = config.sets;
    options.name = name;
    options.experiments = count;
    const std::string total = std::to_string(count);
    sets.push_back(pde::simulate_system_set(
        box, config.system, options,
        [&](const std::string& set, std::int64_t e, double t, double t_end) {
          progress(set + " " + std::to_string(e + 1) + "/" + total, t, t_end);
        }));
  }
  pde::SystemDatasetMetadata metadata;
  metadata.system = config.system.describe();
  metadata.fields = config.system.fields;
  metadata.dimensions = config.system.dimensions;
  metadata.config = config.resolved_toml;
  metadata.created_by = "bhpm " BHPM_VERSION " simulate";
  pde::write_system_dataset(output_path, box, sets, metadata);
  const std::string grid = box.dimensions() == 2
                               ? std::to_string(box.ny()) + " x " + std::to_string(box.nx())
                               : std::to_string(box.nx());
  std::printf(
      "wrote %s: %s; train %lld + test %lld experiments, %zu times x %s points, n_st %lld, "
      "%lld steps (%lld rejected), %.2f s\n",
      output_path.c_str(), metadata.system.c_str(),
      static_cast<long long>(config.train_experiments),
      static_cast<long long>(config.test_experiments), sets.front().t.size(), grid.c_str(),
      static_cast<long long>(config.sets.measurements.n_st),
      static_cast<long long>(sets.front().steps),
      static_cast<long long>(sets.front().rejected_steps), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
