#pragma once
/// Time integration of u_t = F(u, u_x, ..., d^K u) on an interval [a, b] with boundary
/// conditions at its ends (docs/boundary-conditions.md): Chebyshev collocation in x
/// (pde/chebyshev_grid.h), the conditions imposed by eliminating the nodes next to the ends
/// (pde/boundary_elimination.h), and the unknowns' ODE stepped by CVODE's BDF methods with
/// adaptive steps and an exact Jacobian J = S sum_m diag(dF/dv_m) A_m
/// (pde/implicit_integrator.h). F is any Equation: a known
/// one, or a batch of operator samples (member b solves its own), each member with its own
/// integrator and steps, the members spread over the threads.
///
/// The number of conditions each end needs follows from K and the sign of dF/d(d^K u) at
/// that end, read at the initial condition (pde/boundary_conditions.h). A member that needs
/// another count than the conditions give, or whose leading term is backward diffusion, is
/// ill-posed on this interval (what replaces the periodic symbol's check of
/// solve/well_posedness.h): with drop_diverged it is left unsolved (NaN, Solution::failures
/// says why) while the others are solved; else, or when every member is, it is refused.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/solution.h"

namespace bhpm::pde {

/// Chebyshev intervals of a bounded domain (config solver.intervals) and of a training
/// experiment's window: 128 resolve a Burgers front of width 2 nu / A = 0.4 on a 16-wide
/// domain to 1e-6 (bench/bounded_solve's front on [-2, 2]: 48 intervals give 1.3e-7 at the
/// default tolerance; the central spacing scales with the width).
inline constexpr std::int64_t kDefaultIntervals = 128;

struct BoundedSolveOptions {
  double t_end = 1.0;      ///< final time (> 0)
  double output_dt = 0.1;  ///< spacing of stored snapshots; must divide t_end
  /// Each step's local error estimate within relative_tolerance |u_i| + absolute_tolerance
  /// (weighted RMS over the unknowns <= 1).
  double relative_tolerance = 1e-8;
  double absolute_tolerance = 1e-10;
  /// Steps a member may take within one output interval; a member that needs more is
  /// treated as blowing up, so that no member's cost is unbounded.
  std::int64_t max_interval_steps = 20000;
  double blowup_factor = 1e3;  ///< stop when max|u| > factor * max(1, max|u0|)
  /// How far u0 may miss a condition at t = 0: |sum_m w_m d^m u0 - g(0)| at each end must be
  /// within this times max(1, |g(0)|, sum_m |w_m| max|d^m u0|). Loose enough for the
  /// derivative of a u0 that n resolves to a few digits only (a KdV soliton's u_x at the end
  /// of [-15, 15] with n = 64 is 4e-5 off), tight enough for boundary data of another
  /// experiment, another unit or another sign.
  double compatibility_tolerance = 1e-3;
  /// As SolveOptions::drop_diverged (pde/periodic_solve.h): false throws SolverDivergence
  /// naming the member and the time; true drops the member and the others go on.
  bool drop_diverged = false;
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const BoundedSolveOptions& options);

/// dF/dv_m [K+1, P] at derivatives [K+1, 1, P] (v_m = d^m u at P points) and time t (0-dim
/// double, or undefined), by central differences of the pointwise F with steps
/// eps^(1/3) max(1, |v_m|): exact up to O(h^2) for any pointwise F, linear in m for the
/// linear part.
at::Tensor pointwise_partials(const Equation& equation, const at::Tensor& derivatives,
                              const at::Tensor& t);

/// The conditions each end needs for u_t = F from u0 [n+1] (the count of
/// pde/boundary_conditions.h, with dF/d(d^K u) at the ends read at u0); throws
/// std::invalid_argument for a leading term of the sign of backward diffusion.
ConditionCount conditions_needed(const ChebyshevGrid& grid, const Equation& equation,
                                 const at::Tensor& u0);

/// Throws std::invalid_argument unless u0 [n+1] meets every condition at t = 0 within
/// `tolerance` (the rule of BoundedSolveOptions::compatibility_tolerance), naming the end,
/// the condition and both values: the check solve_bounded makes, for callers that check
/// a problem before any work.
void require_compatible(const ChebyshevGrid& grid, const BoundaryConditions& conditions,
                        const at::Tensor& u0, double tolerance);

/// Solves from u0 [B, n+1] (or [n+1]) on the grid's points. u0 must meet the conditions
/// at t = 0 (compatibility_tolerance); its values at the dependent nodes are then replaced
/// by those the conditions give. Returns snapshots [B, T, n+1]
/// on the grid's points at 0, output_dt, .., t_end, steps per member. Throws
/// std::invalid_argument before any step for a wrong count of conditions (naming the end and
/// the count it needs), an initial condition that misses one (naming the end, the condition
/// and both values) or inconsistent times; SolverDivergence as above.
Solution solve_bounded(const ChebyshevGrid& grid, const Equation& equation,
                       const BoundaryConditions& conditions, const at::Tensor& u0,
                       const BoundedSolveOptions& options);

}  // namespace bhpm::pde
