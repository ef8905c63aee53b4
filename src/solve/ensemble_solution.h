#pragma once
/// Solutions of one initial-boundary value problem under S operator samples (paper
/// section 2.3: the distribution of solutions imparted by q(f)), on an output grid of T
/// times and n points, as every IBVP solver of src/solve returns them.

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace bhpm::solve {

struct EnsembleSolution {
  at::Tensor x;         ///< [n] output grid points
  at::Tensor t;         ///< [T] output times
  at::Tensor u;         ///< [S, T, n] double; a diverged member's rows are NaN from its failure on
  at::Tensor diverged;  ///< [S] bool: member s failed (blow-up, NaN) and must not be averaged in
  /// Per member: why it failed (e.g. "max|u| = 3e4 at t = 2.35"), "" for a sound member.
  std::vector<std::string> failures;

  /// Number of diverged members.
  std::int64_t diverged_count() const;
};

}  // namespace bhpm::solve
