#pragma once
/// Time integration of u_t = L u + N on a periodic grid with ETDRK4, sampled at uniform
/// output times 0, output_dt, ..., t_end, for a batch of initial conditions at once: with a
/// fixed step, or with steps chosen to a tolerance by step doubling, each member its own
/// (pde/member_steps.h; docs/solver.md, "Adaptive time steps").

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

#include "pde/equation.h"
#include "pde/etdrk4_stepper.h"
#include "pde/periodic_grid.h"
#include "pde/solution.h"

namespace bhpm::pde {

struct SolveOptions {
  double t_end = 10.0;      ///< final time (> 0)
  double output_dt = 0.05;  ///< spacing of stored snapshots; must divide t_end
  /// Fixed step (tolerance 0): stepper.dt is lowered so that it divides output_dt.
  /// Adaptive (tolerance > 0): stepper.dt is the first step tried.
  Etdrk4Options stepper;
  /// > 0: every step's estimated local error, ||v_h - v_{h/2,h/2}|| / ||v_{h/2,h/2}|| per
  /// batch member (L2, before the two half steps are kept), is at most this, each member
  /// choosing its own steps (pde/member_steps.h); 0: fixed step.
  double tolerance = 0.0;
  /// Adaptive: the most step trials (kept and rejected) a member may take within one output
  /// interval; a member that needs more is treated as blowing up (SolverDivergence, or
  /// dropped with drop_diverged), so that no member's cost is unbounded. 0: no bound.
  std::int64_t max_interval_steps = 0;
  double blowup_factor = 1e3;  ///< stop when max|u| > factor * max(1, max|u0|)
  int check_every = 16;        ///< steps between non-finite checks inside an output interval
  /// false: a blow-up of any batch member stops the solve (SolverDivergence). true: the
  /// member is dropped (its state zeroed, its snapshots NaN from the first unsound output
  /// time on, Solution::failures says why) and the others go on: members are independent,
  /// as the samples of an ensemble are.
  bool drop_diverged = false;
};

/// Throws util::OptionError naming the field (the stepper's as "stepper.dt"), its value and
/// the rule.
void validate(const SolveOptions& options);

/// Output times 0, output_dt, ..., t_end [T]; throws std::invalid_argument as solve_periodic
/// for inconsistent times.
at::Tensor output_times(const SolveOptions& options);

/// Steps per output interval: ceil(output_dt / dt), so the used step is <= dt.
std::int64_t steps_per_output(double output_dt, double dt);

/// Solves from u0 [B, n] (or [n]); throws std::invalid_argument for inconsistent times or a
/// tolerance outside [0, 1), and SolverDivergence on blow-up (adaptive: also when a member's step
/// falls below 1e-12 t_end, which only a blow-up forces; with drop_diverged that member is
/// dropped instead and the others go on). On plain arrays (pde/plain_periodic_solve.h) where
/// solves_on_plain_arrays allows, else with batched tensor operations (solve_periodic_batched):
/// the two agree to rounding.
Solution solve_periodic(const PeriodicGrid& grid, const Equation& equation, const at::Tensor& u0,
                        const SolveOptions& options, const ProgressCallback& progress = {});

/// solve_periodic with tensor operations on the whole batch at once: on the grid's device
/// (CUDA too), for any nonlinear term (sampled operators evaluate tensors only).
Solution solve_periodic_batched(const PeriodicGrid& grid, const Equation& equation,
                                const at::Tensor& u0, const SolveOptions& options,
                                const ProgressCallback& progress = {});

/// The initial condition u0 [B, n] or [n] as [B, n] double; throws std::invalid_argument
/// naming the shape expected on `grid`.
at::Tensor batch_of_initial_conditions(const PeriodicGrid& grid, const at::Tensor& u0);

}  // namespace bhpm::pde
