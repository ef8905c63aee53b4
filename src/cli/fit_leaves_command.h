#pragma once
/// `bhpm fit-leaves CONFIG.toml --data DATA.h5 -o RUN_DIR [--experiments N] [--points P]`
///
/// Phase 1 of training alone (paper appendix B): fits one leaf per training experiment to
/// its measurements and writes RUN_DIR/leaves.ckpt; rerunning resumes from it.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct FitLeavesOptions {
  std::string config_path;
  std::string data_path;
  std::string run_dir;
  std::int64_t experiments = 0;  ///< N; 0 = every training experiment in the file
  std::int64_t points = 0;       ///< n_st; 0 = every measured point
  std::vector<std::string> overrides;
  bool quiet = false;
};

void setup_fit_leaves(CLI::App& app);
int run_fit_leaves(const FitLeavesOptions& options);

}  // namespace bhpm::cli
