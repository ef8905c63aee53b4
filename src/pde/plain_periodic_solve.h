#pragma once
/// solve_periodic (pde/periodic_solve.h) on plain arrays: each batch member is stepped on its
/// own by PlainEtdrk4 (FFTW and loops, no tensor operation per step), the members spread
/// over LibTorch's intra-op threads. The same steps, adaptive ladder (pde/step_ladder.h),
/// blow-up checks and results as the batched tensor solver, to rounding: a 256-point Burgers
/// solve costs a few milliseconds instead of tens (docs/solver.md, "Two engines").

#include <ATen/core/Tensor.h>

#include "pde/equation.h"
#include "pde/periodic_grid.h"
#include "pde/periodic_solve.h"
#include "pde/solution.h"

namespace bhpm::pde {

/// Whether solve_periodic_plain can solve `equation` on `grid`: a CPU grid, and a nonlinear
/// part that evaluates plain values (NonlinearTerm::evaluates_values) or none.
bool solves_on_plain_arrays(const PeriodicGrid& grid, const Equation& equation);

/// As solve_periodic, from u0 [B, n] double (or [n]); throws std::invalid_argument unless
/// solves_on_plain_arrays(grid, equation).
Solution solve_periodic_plain(const PeriodicGrid& grid, const Equation& equation,
                              const at::Tensor& u0, const SolveOptions& options,
                              const ProgressCallback& progress = {});

}  // namespace bhpm::pde
