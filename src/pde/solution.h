#pragma once
/// What a time integration returns, whatever the domain: snapshots at the output times, the
/// steps each member took, and which members were dropped and why (pde/periodic_solve.h on
/// periodic grids, pde/bounded_solve.h on intervals with boundary conditions).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bhpm::pde {

/// A solve that produced NaN/Inf or a runaway amplitude; the message names the time.
class SolverDivergence : public std::runtime_error {
 public:
  SolverDivergence(const std::string& message, double time)
      : std::runtime_error(message), time_(time) {}
  /// Last time at which the solution was checked and found sound.
  double time_reached() const { return time_; }

 private:
  double time_;
};

struct Solution {
  at::Tensor t;                     ///< [T] output times
  at::Tensor u;                     ///< [B, T, n] snapshots
  double dt = 0;                    ///< the fixed step, or t_end / steps when adaptive
  std::int64_t steps = 0;           ///< steps taken (adaptive: the most any member had accepted)
  std::int64_t rejected_steps = 0;  ///< adaptive: the most steps any member had rejected
  std::vector<std::int64_t> member_steps;  ///< adaptive: [B] steps accepted per member
  at::Tensor diverged;  ///< [B] bool: members dropped (drop_diverged only; else all false)
  std::vector<std::string> failures;  ///< [B]: why member b was dropped, "" if it was not
};

/// Called after each output time with (t, t_end).
using ProgressCallback = std::function<void(double, double)>;

}  // namespace bhpm::pde
