#pragma once
/// `bhpm fit-leaves CONFIG.toml --data DATA.h5 -o RUN_DIR [--experiments N] [--points P]`
///
/// Phase 1 of training alone (paper appendix B): fits one leaf per training experiment to
/// its measurements and writes RUN_DIR/leaves.ckpt; rerunning resumes from it.

#include "cli/training_inputs.h"

namespace CLI {
class App;
}

namespace bhpm::cli {

void setup_fit_leaves(CLI::App& app);
int run_fit_leaves(const TrainingCommandOptions& options);

}  // namespace bhpm::cli
