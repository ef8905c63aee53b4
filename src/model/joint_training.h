#pragma once
/// Phase 3 of the paper's training protocol (appendix B): leaves and sparse root trained
/// jointly on the ELBO of Eq. 4 with Adam (defaults: 5e4 iterations at learning rate 1e-3,
/// full batches; minibatches optional). Minibatch k is drawn from
/// derive_seed(seed, "joint_batch", k) alone, so a resumed run equals an uninterrupted one.

#include <cstdint>

#include "model/adam_phase.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"

namespace bhpm::model {

struct JointTrainingOptions : AdamSchedule {
  /// The paper's schedule as defaults.
  JointTrainingOptions() {
    iterations = 50000;
    learning_rate = 1e-3;
  }
  std::int64_t batch_size = 0;  ///< points per leaf per step; 0 = all n_st (>= 0)
  std::uint64_t seed = 0;       ///< minibatch draws
  /// After the last step, set the root's q(u) to the ELBO's maximiser over all root rows
  /// (BhpmModelImpl::set_optimal_root_posterior): on a short minibatch schedule Adam leaves
  /// q(u) near its start, the exact GP's posterior on phase 2's few rows, which is too wide
  /// (docs/training.md, "Training phases").
  bool optimal_root_posterior = true;
};

/// The configuration fields a joint checkpoint must agree on.
std::vector<std::pair<std::string, std::string>> joint_architecture(const BhpmModelImpl& model);

/// Throws util::OptionError naming the field, its value and the rule (the schedule's as
/// validate(AdamSchedule, "joint")).
void validate(const JointTrainingOptions& options);

/// Trains `model` on `data` (validated first). Progress terms: "loss" (negative ELBO per
/// measurement), "leaf_nll" (sum over leaves of the per-point NLL, as in phase 1),
/// "root_ell" (expected log-likelihood per root point), "kl", "sigma_f", the mean's
/// weights and each leaf's sigma. Throws as run_adam_phase.
PhaseResult train_joint(BhpmModelImpl& model, const LeafData& data,
                        const JointTrainingOptions& options, const TrainingCallback& progress = {});

}  // namespace bhpm::model
