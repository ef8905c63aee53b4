#pragma once
/// Simulated experiments on a bounded domain (docs/boundary-conditions.md, "Simulated
/// data on a bounded domain"): every experiment solved on the Chebyshev points of [a, b]
/// under the same boundary conditions by pde::solve_bounded, its measurements drawn from
/// that grid as on a periodic one (pde/experiment_set.h).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

#include "pde/boundary_conditions.h"
#include "pde/bounded_solve.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/experiment_set.h"
#include "pde/initial_condition.h"

namespace bhpm::pde {

/// Initial conditions [count, n+1] at the grid's points that meet `conditions` at t = 0.
/// kind "gp": experiment e's draw of the periodic GP on [a, b] (make_initial_conditions on
/// the uniform grid of `modes` points; its kernel's period is b - a), interpolated to the
/// Chebyshev points by its Fourier series, plus the correction p of least coefficient norm
/// in the polynomials of degree r + 1 in s = (2x - a - b)/(b - a), r the number of
/// conditions, that makes it meet every condition (exactly, up to rounding). kind
/// "expression": the expression at the points, uncorrected (the solver checks it). kind
/// "file" (values at a periodic grid's points) is refused. Throws std::invalid_argument
/// naming `field` when the conditions cannot be met by such a p.
at::Tensor bounded_initial_conditions(const ChebyshevGrid& grid, std::int64_t modes,
                                      const BoundaryConditions& conditions,
                                      const InitialConditionOptions& options, std::int64_t count,
                                      std::uint64_t seed, const std::string& stream);

/// Simulates every experiment of the set on the grid under `conditions` (solve_bounded at
/// its default tolerances, outputs every options.solve.output_dt to options.solve.t_end,
/// options.solve.blowup_factor) and draws the measurements. The set's `conditions` says
/// which conditions (non-empty: a bounded set). Throws std::invalid_argument for
/// inconsistent options or conditions that do not fit the equation (naming the end and the
/// count), SolverDivergence naming the set on blow-up.
ExperimentSet simulate_bounded_experiment_set(const ChebyshevGrid& grid, std::int64_t modes,
                                              const Equation& equation,
                                              const BoundaryConditions& conditions,
                                              const ExperimentSetOptions& options);

}  // namespace bhpm::pde
