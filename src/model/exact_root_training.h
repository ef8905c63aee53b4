#pragma once
/// Phase 2 of the paper's training protocol (appendix B): with the leaves fixed, a static
/// root data set is generated, at most 1024 rows of it are subsampled, and an exact GP
/// on them maximises its log marginal likelihood (Eq. 3) over the mean, kernel and
/// likelihood parameters with Adam (defaults: 2000 iterations at learning rate 1e-2).

#include <cstdint>

#include "gp/exact_gp.h"
#include "model/adam_phase.h"

namespace bhpm::model {

struct ExactRootTrainingOptions : AdamSchedule {
  /// The paper's schedule as defaults.
  ExactRootTrainingOptions() {
    iterations = 2000;
    learning_rate = 1e-2;
    checkpoint_every = 500;
  }
  std::int64_t points = 1024;  ///< rows of the root data the exact GP sees (>= 1)
};

/// Throws util::OptionError naming the field, its value and the rule (the schedule's as
/// validate(AdamSchedule, "exact_gp")).
void validate(const ExactRootTrainingOptions& options);

/// Maximises log p(y | X) of `root` (its training data already set). Progress terms:
/// "nlml" (-log p(y | X) per point), "sigma_f", the mean's weights. Throws as
/// run_adam_phase; a failed Cholesky is reported as a TrainingError naming the iteration.
PhaseResult train_exact_root(gp::ExactGpImpl& root, const ExactRootTrainingOptions& options,
                             const TrainingCallback& progress = {});

}  // namespace bhpm::model
