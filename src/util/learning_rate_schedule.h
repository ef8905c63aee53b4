#pragma once
/// Adam's learning rate over a run, shared by the training phases (model/adam_phase.h) and
/// the PINN solver (solve/pinn_solver.h): constant (the paper's appendix B), or cosine
/// annealing from the first rate to a final one.

#include <cstdint>

namespace bhpm::util {

struct LearningRateSchedule {
  std::int64_t iterations = 1;  ///< total steps
  double initial = 1e-3;        ///< rate at step 0
  double final = -1.0;          ///< rate at the last step; < 0 keeps the rate constant
};

/// final + (initial - final) (1 + cos(pi i / (iterations - 1))) / 2 at step i (0-based);
/// `initial` when final < 0 or iterations <= 1.
double learning_rate_at(const LearningRateSchedule& schedule, std::int64_t iteration);

}  // namespace bhpm::util
