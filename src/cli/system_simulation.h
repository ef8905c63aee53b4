#pragma once
/// `bhpm simulate` for a configuration with a [system] section: the train and test sets of
/// a field system on its periodic box, written as a version 3 dataset (docs/systems.md).

#include <string>
#include <vector>

namespace bhpm::cli {

/// Simulates and writes the sets; returns the exit code (errors are thrown, as every
/// command's, to the caller that prints them).
int run_system_simulation(const std::string& config_path, const std::string& output_path,
                          const std::vector<std::string>& overrides, bool quiet);

}  // namespace bhpm::cli
