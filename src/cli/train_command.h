#pragma once
/// `bhpm train CONFIG.toml --data TRAIN.h5 -o RUN_DIR [--experiments N] [--points n_st]`
///
/// The paper's three-phase training (appendix B; model/bhpm_training.h): writes
/// RUN_DIR/leaves.ckpt, exact_gp.ckpt and joint.ckpt (the trained model) and
/// RUN_DIR/root.h5 (root inputs and GP, model/root_export.h). Rerunning resumes from the
/// checkpoints.

#include "cli/training_inputs.h"

namespace CLI {
class App;
}

namespace bhpm::cli {

void setup_train(CLI::App& app);
int run_train(const TrainingCommandOptions& options);

}  // namespace bhpm::cli
