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
  if (options.check_every < 1) throw std::invalid_argument("solve: check_every must be >= 1");
  const double ratio = options.t_end / options.output_dt;
  const auto intervals = static_cast<std::int64_t>(std::llround(ratio));
  if (std::abs(ratio - static_cast<double>(intervals)) > 1e-9 * ratio)
    throw std::invalid_argument("solve: output_dt (" + std::to_string(options.output_dt) +
                                ") must divide t_end (" + std::to_string(options.t_end) + ")");
  return intervals;
}

/// Members of u [B, ...] (real or complex) that are not finite or exceed `limit`: [B] bool.
at::Tensor unsound_members(const at::Tensor& u, double limit) {
  const at::Tensor peak = u.abs().flatten(1).amax(1);
  return (~at::isfinite(peak)) | (peak > limit);
}

/// "max|u| = P in batch member b (limit L)" for the first unsound member of u [B, n].
std::string describe_member(const at::Tensor& u, std::int64_t b, double limit) {
  std::ostringstream text;
  text << "max|u| = " << u[b].abs().max().item<double>() << " in batch member " << b << " (limit "
       << limit << ")";
  return text.str();
}

[[noreturn]] void diverged(const at::Tensor& u, double t_bad, double t_good, double limit) {
  const auto index = unsound_members(u, limit).nonzero();
  std::ostringstream message;
  message << "solution blew up by t = " << t_bad << " (last sound state at t = " << t_good << "): ";
  if (index.numel() > 0) message << describe_member(u, index[0][0].item<std::int64_t>(), limit);
  throw SolverDivergence(message.str(), t_good);
}

/// Checks the state v (spectral) or u (physical) of every member: throws, or in drop mode
/// zeroes the unsound members of v, records why and returns.
class DivergenceGuard {
 public:
  DivergenceGuard(const PeriodicGrid& grid, std::int64_t members, double limit, bool drop)
      : grid_(grid),
        limit_(limit),
        drop_(drop),
        dropped_(at::zeros({members}, at::kBool)),
        first_bad_output_(static_cast<std::size_t>(members), -1),
        failures_(static_cast<std::size_t>(members)) {}

  /// Spectral state v between output times (non-finite values only).
  void check_spectral(at::Tensor& v, double t_bad, double t_good, std::int64_t output) {
    const at::Tensor bad = unsound_members(v, INFINITY) & ~dropped_;
    if (bad.any().item<bool>()) handle(v, grid_.to_physical(v), bad, t_bad, t_good, output);
  }
  /// Physical state u = to_physical(v) at an output time.
  void check_physical(at::Tensor& v, const at::Tensor& u, double t, double t_good,
                      std::int64_t output) {
    const at::Tensor bad = unsound_members(u, limit_) & ~dropped_;
    if (bad.any().item<bool>()) handle(v, u, bad, t, t_good, output);
  }
  /// Marks the dropped members' snapshots [B, T, n] NaN from their first unsound output.
  void mask(at::Tensor& snapshots) const {
    for (std::size_t b = 0; b < first_bad_output_.size(); ++b)
      if (first_bad_output_[b] >= 0)
        snapshots[static_cast<std::int64_t>(b)].slice(0, first_bad_output_[b]).fill_(NAN);
  }
  const at::Tensor& dropped() const { return dropped_; }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  void handle(at::Tensor& v, const at::Tensor& u, const at::Tensor& bad, double t_bad,
              double t_good, std::int64_t output) {
    if (!drop_) diverged(u, t_bad, t_good, limit_);
    const at::Tensor index = bad.nonzero().flatten();
    for (std::int64_t i = 0; i < index.numel(); ++i) {
      const std::int64_t b = index[i].item<std::int64_t>();
      std::ostringstream why;
      why << "blew up by t = " << t_bad << " (last sound state at t = " << t_good
          << "): " << describe_member(u, b, limit_);
      failures_[static_cast<std::size_t>(b)] = why.str();
      first_bad_output_[static_cast<std::size_t>(b)] = output;
    }
    dropped_ |= bad;
    v.index_put_({bad}, 0.0);
  }

  const PeriodicGrid& grid_;
  double limit_;
  bool drop_;
  at::Tensor dropped_;
  std::vector<std::int64_t> first_bad_output_;
  std::vector<std::string> failures_;
};

}  // namespace

at::Tensor output_times(const SolveOptions& options) {
  return at::arange(output_intervals(options) + 1, at::kDouble) * options.output_dt;
}

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
  Solution solution;
  solution.dt = stepper.dt();
  solution.t = output_times(options);
  solution.u = at::empty({start.size(0), intervals + 1, grid.points()}, start.options());

  DivergenceGuard guard(grid, start.size(0), limit, options.drop_diverged);
  at::Tensor v = grid.to_spectral(start);
  guard.check_physical(v, start, 0.0, 0.0, 0);
  solution.u.select(1, 0).copy_(start);
  for (std::int64_t i = 1; i <= intervals; ++i) {
    const double t_previous = static_cast<double>(i - 1) * options.output_dt;
    for (std::int64_t s = 1; s <= substeps; ++s) {
      v = stepper.step(v);
      if (s % options.check_every == 0)
        guard.check_spectral(v, t_previous + s * stepper.dt(), t_previous, i);
    }
    const at::Tensor u = grid.to_physical(v);
    const double t = static_cast<double>(i) * options.output_dt;
    guard.check_physical(v, u, t, t_previous, i);
    solution.u.select(1, i).copy_(u);
    solution.steps += substeps;
    if (progress) progress(t, options.t_end);
  }
  guard.mask(solution.u);
  solution.diverged = guard.dropped();
  solution.failures = guard.failures();
  return solution;
}

}  // namespace bhpm::pde
