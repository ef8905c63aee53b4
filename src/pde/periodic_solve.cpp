#include "pde/periodic_solve.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

#include "pde/divergence_guard.h"
#include "pde/member_steps.h"
#include "pde/output_times.h"
#include "pde/plain_periodic_solve.h"
#include "util/option_check.h"

namespace bhpm::pde {

std::int64_t steps_per_output(double output_dt, double dt) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(output_dt / dt - 1e-9)));
}

void validate(const SolveOptions& options) {
  const std::string owner = "solve";
  validate_output_times(options.t_end, options.output_dt, owner);
  util::validate_nested(owner, "stepper.", [&] { validate(options.stepper); });
  util::require_unit_interval(options.tolerance, owner, "tolerance", "(0: fixed steps of dt)");
  util::require_non_negative(static_cast<double>(options.max_interval_steps), owner,
                             "max_interval_steps", "(0: no bound)");
  util::require_positive(options.blowup_factor, owner, "blowup_factor");
  util::require_at_least(options.check_every, 1, owner, "check_every");
}

namespace {

std::int64_t output_intervals(const SolveOptions& options) {
  validate(options);
  return std::llround(options.t_end / options.output_dt);
}

}  // namespace

at::Tensor output_times(const SolveOptions& options) {
  return at::arange(output_intervals(options) + 1, at::kDouble) * options.output_dt;
}

namespace {

/// Advances v from t_from to t_to with fixed steps of stepper.dt() (a whole number of them).
void advance_fixed(at::Tensor& v, const Etdrk4Stepper& stepper, std::int64_t substeps,
                   double t_from, std::int64_t output, const SolveOptions& options,
                   DivergenceGuard& guard, Solution& solution) {
  for (std::int64_t s = 1; s <= substeps; ++s) {
    v = stepper.step(v, t_from + static_cast<double>(s - 1) * stepper.dt());
    if (s % options.check_every == 0)
      guard.check_spectral(v, t_from + s * stepper.dt(), t_from, output);
  }
  solution.steps += substeps;
}

}  // namespace

at::Tensor batch_of_initial_conditions(const PeriodicGrid& grid, const at::Tensor& u0) {
  const at::Tensor start = (u0.dim() == 1 ? u0.unsqueeze(0) : u0).to(at::kDouble);
  if (start.dim() != 2 || start.size(1) != grid.points())
    throw std::invalid_argument("solve: initial condition must have shape [B, " +
                                std::to_string(grid.points()) + "]");
  return start;
}

Solution solve_periodic(const PeriodicGrid& grid, const Equation& equation, const at::Tensor& u0,
                        const SolveOptions& options, const ProgressCallback& progress) {
  if (solves_on_plain_arrays(grid, equation))
    return solve_periodic_plain(grid, equation, u0, options, progress);
  return solve_periodic_batched(grid, equation, u0, options, progress);
}

Solution solve_periodic_batched(const PeriodicGrid& grid, const Equation& equation,
                                const at::Tensor& u0, const SolveOptions& options,
                                const ProgressCallback& progress) {
  const std::int64_t intervals = output_intervals(options);
  const at::Tensor start = batch_of_initial_conditions(grid, u0);
  const bool adaptive = options.tolerance > 0.0;
  const std::int64_t substeps = steps_per_output(options.output_dt, options.stepper.dt);
  Etdrk4Options stepper_options = options.stepper;
  stepper_options.dt = options.output_dt / static_cast<double>(substeps);
  const Etdrk4Stepper stepper(grid, equation, stepper_options);

  const double limit = options.blowup_factor * std::max(1.0, start.abs().max().item<double>());
  Solution solution;
  solution.t = output_times(options);
  solution.u = at::empty({start.size(0), intervals + 1, grid.points()}, start.options());

  DivergenceGuard guard(grid, start.size(0), limit, options.drop_diverged);
  MemberSteps member_steps(grid, equation, options, start.size(0));
  at::Tensor v = grid.to_spectral(start);
  guard.check_physical(v, start, 0.0, 0.0, 0);
  solution.u.select(1, 0).copy_(start);
  for (std::int64_t i = 1; i <= intervals; ++i) {
    const double t_previous = static_cast<double>(i - 1) * options.output_dt;
    const double t = static_cast<double>(i) * options.output_dt;
    if (adaptive)
      member_steps.advance(v, t_previous, i, guard);
    else
      advance_fixed(v, stepper, substeps, t_previous, i, options, guard, solution);
    const at::Tensor u = grid.to_physical(v);
    guard.check_physical(v, u, t, t_previous, i);
    solution.u.select(1, i).copy_(u);
    if (progress) progress(t, options.t_end);
  }
  if (adaptive) {
    solution.steps = member_steps.most_accepted();
    solution.rejected_steps = member_steps.most_rejected();
    solution.member_steps = member_steps.accepted();
  }
  solution.dt = adaptive ? options.t_end / static_cast<double>(solution.steps) : stepper.dt();
  guard.mask(solution.u);
  solution.diverged = guard.dropped();
  solution.failures = guard.failures();
  return solution;
}

}  // namespace bhpm::pde
