#pragma once
/// The paper's three-phase training protocol (appendix B), resumable at any phase:
///   1. leaves alone (leaf_training.h)                   -> leaf_training.checkpoint_path
///   2. exact root GP on <= 1024 root rows (exact_root_training.h)
///                                                       -> exact_training.checkpoint_path
///   3. sparse root (k-means inducing inputs, q(u) from the exact posterior) and leaves
///      jointly on the ELBO (joint_training.h)           -> joint_training.checkpoint_path
/// A phase whose checkpoint holds all its iterations is restored, not rerun; once the
/// joint checkpoint exists, phases 1 and 2 are not needed and are skipped. The caller
/// names the checkpoint files (a run folder's names: config/run_layout.h). One seed drives the
/// minibatches, the root subsample and k-means.

#include <cstdint>
#include <string>

#include "model/bhpm_model.h"
#include "model/exact_root_training.h"
#include "model/joint_training.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "model/root_gp.h"

namespace bhpm::model {

struct BhpmTrainingOptions {
  LeafModelOptions leaves;  ///< leaves.network.leaves must equal the data's N
  LeafTrainingOptions leaf_training;
  RootOptions root;
  ExactRootTrainingOptions exact_training;
  JointTrainingOptions joint_training;
  std::uint64_t seed = 0;       ///< overrides the phases' seeds
  std::string config;           ///< resolved configuration, stored in checkpoints
  at::Device device{at::kCPU};  ///< where the data and every module are placed
};

struct BhpmTrainingResult {
  BhpmModel model{nullptr};
  PhaseResult leaves, exact_gp, joint;  ///< where each phase resumed (untouched if skipped)
  /// Phase 1's early stopping per leaf (empty without it, or when phase 1 was skipped).
  std::vector<std::int64_t> leaves_kept_iterations;
  std::vector<double> leaves_validation_rmse;
  bool skipped_to_joint = false;  ///< the joint checkpoint existed: phases 1 and 2 were skipped
};

/// Runs the protocol on `data` on options.device (the model it returns lives there). Throws
/// std::invalid_argument for bad options or data, io::CheckpointError for a checkpoint of another
/// configuration, TrainingError naming the phase and the iteration when an objective fails.
BhpmTrainingResult train_bhpm(const LeafData& data, const BhpmTrainingOptions& options,
                              const TrainingCallback& progress = {});

}  // namespace bhpm::model
