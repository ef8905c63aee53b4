#pragma once
/// `bhpm run CONFIG.toml -o RUN_DIR [--set section.key=value ...] [--threads N] [-q]`
///
/// The whole job in one folder: the stages of the configuration's [run] section
/// (simulate, train, evaluate, predict, refinement, report; config/pipeline_config.h), each
/// skipped when its outputs exist and were made by this configuration, so that a run
/// that was interrupted resumes (training from its last checkpoint). The configuration is
/// checked whole before any work: a key or section it must have, a value out of range, a
/// predicted experiment the data will not hold, or an output in RUN_DIR made by another
/// configuration (simulate and train outputs are never overwritten: use a new folder).
/// A configuration with a [system] section runs a field system's stages instead
/// (cli/system_run.h). Files: config/run_layout.h.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct RunCommandOptions {
  std::string config_path;
  std::string run_dir;
  std::vector<std::string> overrides;  ///< "section.key=value"
  int threads = 0;  ///< ATen threads per stage; 0 = the default (process_setup.h)
  bool quiet = false;
};

void setup_run(CLI::App& app);
int run_pipeline(const RunCommandOptions& options);

}  // namespace bhpm::cli
