#pragma once
/// `bhpm simulate CONFIG.toml -o OUT.h5 [--set section.key=value ...]`

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct SimulateOptions {
  std::string config_path;
  std::string output_path;
  std::vector<std::string> overrides;
  bool quiet = false;
};

/// Registers the subcommand; `run` is called with the parsed options.
void setup_simulate(CLI::App& app);

/// Simulates the train and test sets and writes them; returns the exit code.
int run_simulate(const SimulateOptions& options);

}  // namespace bhpm::cli
