#pragma once
/// The bounded-domain IBVP solver for operator samples (docs/boundary-conditions.md): every
/// sample f_s integrated from the same u0 on an interval's Chebyshev grid under the same
/// boundary conditions by pde::solve_bounded, each member its own CVODE integration with its
/// own steps. No linear part is split off (an implicit integrator needs none). A member that
/// blows up, or that is ill-posed with these conditions (its leading term needs another
/// count of conditions, or is backward diffusion), is dropped and reported
/// (EnsembleSolution::failures, diverged); the others go on.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>

#include "gp/function_samples.h"
#include "pde/boundary_conditions.h"
#include "pde/bounded_solve.h"
#include "pde/chebyshev_grid.h"
#include "solve/ensemble_solution.h"

namespace bhpm::solve {

/// v [P, D] = (u, u_x, .., d^K u/dx^K) of u [..., n+1] on the grid's points at every entry
/// (Chebyshev differentiation), K = dimensions - 1, rows in u's flattened order: the root's
/// inputs along a solution on a window.
at::Tensor bounded_root_inputs(const pde::ChebyshevGrid& grid, const at::Tensor& u,
                               std::int64_t dimensions);

/// Solves u_t = f_s(u, .., d^K u/dx^K), u(x, 0) = u0 [n+1] on grid's points, under
/// `conditions`, for every sample s (K = samples->dimensions() - 1); options.drop_diverged is
/// forced on. Returns u [S, T, n+1] on the grid's points. Throws std::invalid_argument for a
/// u0 of another size, conditions that do not fit the operator (naming the end and the count)
/// for every sample, or a u0 that misses them at t = 0.
EnsembleSolution solve_bounded_ensemble(const pde::ChebyshevGrid& grid,
                                        std::shared_ptr<const gp::FunctionSamples> samples,
                                        const at::Tensor& u0,
                                        const pde::BoundaryConditions& conditions,
                                        pde::BoundedSolveOptions options);

}  // namespace bhpm::solve
