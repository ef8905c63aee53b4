#include "pde/periodic_solve.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>

namespace bhpm::pde {

std::int64_t steps_per_output(double output_dt, double dt) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(output_dt / dt - 1e-9)));
}

namespace {

std::int64_t output_intervals(const SolveOptions& options) {
  if (!(options.t_end > 0.0 && std::isfinite(options.t_end)))
    throw std::invalid_argument("solve: t_end must be positive (got " +
                                std::to_string(options.t_end) + ")");
  if (!(options.output_dt > 0.0 && options.output_dt <= options.t_end))
    throw std::invalid_argument("solve: output_dt must be in (0, t_end] (got " +
                                std::to_string(options.output_dt) + ")");
  if (!(options.stepper.dt > 0.0 && std::isfinite(options.stepper.dt)))
    throw std::invalid_argument("solve: time step must be positive (got " +
                                std::to_string(options.stepper.dt) + ")");
  if (options.check_every < 1)
    throw std::invalid_argument("solve: check_every must be >= 1");
  const double ratio = options.t_end / options.output_dt;
  const auto intervals = static_cast<std::int64_t>(std::llround(ratio));
  if (std::abs(ratio - static_cast<double>(intervals)) > 1e-9 * ratio)
    throw std::invalid_argument("solve: output_dt (" + std::to_string(options.output_dt) +
                                ") must divide t_end (" + std::to_string(options.t_end) + ")");
  return intervals;
}

[[noreturn]] void diverged(const at::Tensor& u, double t_bad, double t_good, double limit) {
  const at::Tensor peak = u.abs().amax(-1);  // [B]
  const at::Tensor bad = (~at::isfinite(peak)) | (peak > limit);
  const auto index = bad.nonzero();
  std::ostringstream message;
  message << "solution blew up by t = " << t_bad << " (last sound state at t = " << t_good
          << "): ";
  if (index.numel() > 0) {
    const auto b = index[0][0].item<std::int64_t>();
    message << "max|u| = " << peak[b].item<double>() << " in batch member " << b
            << " (limit " << limit << ")";
  }
  throw SolverDivergence(message.str(), t_good);
}

bool sound(const at::Tensor& u, double limit) {
  const double peak = u.abs().max().item<double>();
  return std::isfinite(peak) && peak <= limit;
}

}  // namespace

Solution solve_periodic(const PeriodicGrid& grid, const Equation& equation, const at::Tensor& u0,
                        const SolveOptions& options, const ProgressCallback& progress) {
  const std::int64_t intervals = output_intervals(options);
  const at::Tensor start = (u0.dim() == 1 ? u0.unsqueeze(0) : u0).to(at::kDouble);
  if (start.dim() != 2 || start.size(1) != grid.points())
    throw std::invalid_argument("solve: initial condition must have shape [B, " +
                                std::to_string(grid.points()) + "]");
  const std::int64_t substeps = steps_per_output(options.output_dt, options.stepper.dt);
  Etdrk4Options stepper_options = options.stepper;
  stepper_options.dt = options.output_dt / static_cast<double>(substeps);
  const Etdrk4Stepper stepper(grid, equation, stepper_options);

  const double limit = options.blowup_factor * std::max(1.0, start.abs().max().item<double>());
  if (!sound(start, limit)) diverged(start, 0.0, 0.0, limit);
  Solution solution;
  solution.dt = stepper.dt();
  solution.t = at::arange(intervals + 1, at::kDouble) * options.output_dt;
  solution.u = at::empty({start.size(0), intervals + 1, grid.points()}, start.options());
  solution.u.select(1, 0).copy_(start);

  at::Tensor v = grid.to_spectral(start);
  for (std::int64_t i = 1; i <= intervals; ++i) {
    const double t_previous = static_cast<double>(i - 1) * options.output_dt;
    for (std::int64_t s = 1; s <= substeps; ++s) {
      v = stepper.step(v);
      if (s % options.check_every == 0 && !sound(v, INFINITY))
        diverged(grid.to_physical(v), t_previous + s * stepper.dt(), t_previous, limit);
    }
    const at::Tensor u = grid.to_physical(v);
    const double t = static_cast<double>(i) * options.output_dt;
    if (!sound(u, limit)) diverged(u, t, t_previous, limit);
    solution.u.select(1, i).copy_(u);
    solution.steps += substeps;
    if (progress) progress(t, options.t_end);
  }
  return solution;
}

}  // namespace bhpm::pde
