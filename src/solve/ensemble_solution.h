#pragma once
/// Solutions of one initial-boundary value problem under S operator samples (paper
/// section 2.3: the distribution of solutions imparted by q(f)), on an output grid of T
/// times and n points, as every IBVP solver of src/solve returns them.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bhpm::solve {

struct EnsembleSolution {
  at::Tensor x;         ///< [n] output grid points
  at::Tensor t;         ///< [T] output times
  at::Tensor u;         ///< [S, T, n] double; a diverged member's rows are NaN from its failure on
  at::Tensor diverged;  ///< [S] bool: member s failed (blow-up, NaN) and must not be averaged in
  /// Per member: why it failed (e.g. "max|u| = 3e4 at t = 2.35") or was rejected, "" for a
  /// sound member.
  std::vector<std::string> failures;
  /// [S] bool or undefined: member s was ill-posed along the initial condition
  /// (solve/well_posedness.h) and is left out of the statistics; its rows are NaN.
  at::Tensor rejected;
  /// [S] or undefined: e-folds of the fastest resolved wave in member s's linearisation
  /// (before any repair).
  at::Tensor growth;
  /// [S] or undefined: a_s > 0 where member s was ill-posed and solved with the least
  /// diffusion that makes it well-posed (solve/stabilised_samples.h; a sound member), that
  /// diffusion's coefficient; 0 for the members not repaired.
  at::Tensor added_diffusion;
  /// Time steps the solver took and rejected (adaptive steps, pde::Solution) for this
  /// ensemble; with Algorithm 1 summed over the solves of all its rounds; 0 for the PINN.
  std::int64_t steps = 0;
  std::int64_t rejected_steps = 0;

  /// Number of diverged members.
  std::int64_t diverged_count() const;
  /// Number of rejected members.
  std::int64_t rejected_count() const;
  /// [S] bool: the repaired members, added_diffusion > 0 (none when it is undefined).
  at::Tensor repaired() const;
  /// Number of repaired members.
  std::int64_t repaired_count() const;
  /// [S] bool: diverged or rejected, the members the statistics leave out.
  at::Tensor left_out() const;
};

}  // namespace bhpm::solve
