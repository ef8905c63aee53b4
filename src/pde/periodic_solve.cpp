#include "pde/periodic_solve.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

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
  if (!(options.tolerance >= 0.0 && std::isfinite(options.tolerance)))
    throw std::invalid_argument("solve: tolerance must be >= 0 (got " +
                                std::to_string(options.tolerance) + ")");
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

/// "max|u| = P in batch member b (limit L)" for the first unsound member of u [B, n], or
/// "u is NaN or infinite in batch member b" when it is not finite.
std::string describe_member(const at::Tensor& u, std::int64_t b, double limit) {
  std::ostringstream text;
  const double peak = u[b].abs().max().item<double>();
  if (std::isfinite(peak))
    text << "max|u| = " << peak << " in batch member " << b << " (limit " << limit << ")";
  else
    text << "u is NaN or infinite in batch member " << b;
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
        dropped_(at::zeros({members}, grid.real_options().dtype(at::kBool))),
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
  /// Drops member b (drop mode only; otherwise throws SolverDivergence with `why`).
  void drop(at::Tensor& v, std::int64_t b, const std::string& why, double t, std::int64_t output) {
    if (!drop_) throw SolverDivergence(why, t);
    failures_[static_cast<std::size_t>(b)] = why;
    first_bad_output_[static_cast<std::size_t>(b)] = output;
    dropped_[b] = true;
    v[b].zero_();
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
      drop(v, b, why.str(), t_bad, output);
    }
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

namespace {

/// ETDRK4 steppers by step size, so that a step size met again reuses its coefficients.
class StepperCache {
 public:
  StepperCache(const PeriodicGrid& grid, const Equation& equation, Etdrk4Options options)
      : grid_(grid), equation_(equation), options_(std::move(options)) {}

  const Etdrk4Stepper& at(double h) {
    auto found = steppers_.find(h);
    if (found != steppers_.end()) return found->second;
    if (steppers_.size() >= 64) steppers_.clear();
    options_.dt = h;
    return steppers_.emplace(h, Etdrk4Stepper(grid_, equation_, options_)).first->second;
  }

 private:
  const PeriodicGrid& grid_;
  const Equation& equation_;
  Etdrk4Options options_;
  std::map<double, Etdrk4Stepper> steppers_;
};

/// The step-doubling estimate: over the sound members, the largest ||a_b - b_b|| / ||b_b||
/// (spectral L2 = physical L2 by Parseval) and the member it belongs to (-1 if none);
/// members dropped or not finite are left to the divergence guard.
struct StepError {
  double value = 0.0;
  std::int64_t member = -1;
};

StepError relative_difference(const at::Tensor& a, const at::Tensor& b, const at::Tensor& dropped) {
  const at::Tensor difference = at::linalg_vector_norm(a - b, 2, {1});
  const at::Tensor size = at::linalg_vector_norm(b, 2, {1}).clamp_min(1e-300);
  const at::Tensor relative = difference / size;
  const at::Tensor counted = at::isfinite(relative) & ~dropped;
  if (!counted.any().item<bool>()) return {};
  const auto member = at::where(counted, relative, -1.0).argmax().item<std::int64_t>();
  return {relative[member].item<double>(), member};
}

/// Step doubling (docs/numerics.md, "Adaptive time steps"): the next step size after a step
/// of h whose estimate was `error`: h min(4, max(0.2, 0.9 (tolerance / error)^(1/5))), the
/// local error of a fourth-order step scaling like h^5.
double next_step_size(double h, double error, double tolerance) {
  if (!(error > 0.0)) return 4.0 * h;
  return h * std::clamp(0.9 * std::pow(tolerance / error, 0.2), 0.2, 4.0);
}

/// Sizes on the grid h_0 2^(j/4), so that the steppers of h and h/2 are met again.
double quantized_step(double h, double h0) {
  return h0 * std::exp2(std::floor(4.0 * std::log2(h / h0) + 1e-9) / 4.0);
}

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

/// Advances v from t_from to t_to, the last step shortened to land on t_to; `h` is the step
/// size to try first and returns the one to try next.
void advance_adaptive(at::Tensor& v, StepperCache& steppers, double& h, double t_from, double t_to,
                      std::int64_t output, const SolveOptions& options, DivergenceGuard& guard,
                      Solution& solution) {
  const double h0 = options.stepper.dt, smallest = 1e-12 * options.t_end;
  double t = t_from;
  std::int64_t accepted = 0;
  while (t < t_to) {
    const double remaining = t_to - t;
    const bool last = h >= remaining * (1.0 - 1e-9);
    const double step = last ? remaining : quantized_step(h, h0);
    const Etdrk4Stepper& half = steppers.at(0.5 * step);
    const at::Tensor halves = half.step(half.step(v, t), t + 0.5 * step);
    const at::Tensor whole = steppers.at(step).step(v, t);
    const StepError estimate = relative_difference(whole, halves, guard.dropped());
    const double error = estimate.value;
    const double proposed = next_step_size(step, error, options.tolerance);
    if (error <= options.tolerance) {
      v = halves + (halves - whole) / 15.0;  // Richardson: the h^5 terms cancel
      t = last ? t_to : t + step;
      h = last ? std::max(h, proposed) : proposed;  // a shortened last step says little
      if (++accepted % options.check_every == 0) guard.check_spectral(v, t, t_from, output);
    } else {
      ++solution.rejected_steps;
      h = proposed;
    }
    if (h >= smallest) continue;
    // The step collapsed: a blow-up. In drop mode the member with the largest error goes
    // and the others continue from the initial step; otherwise the solve ends here.
    std::ostringstream why;
    why << "blew up by t = " << t << ": the adaptive step fell below " << smallest
        << " (error estimate " << error << " against tolerance " << options.tolerance
        << ") in batch member " << estimate.member;
    guard.drop(v, std::max<std::int64_t>(estimate.member, 0), why.str(), t, output);
    h = h0;
  }
  solution.steps += accepted;
}

}  // namespace

Solution solve_periodic(const PeriodicGrid& grid, const Equation& equation, const at::Tensor& u0,
                        const SolveOptions& options, const ProgressCallback& progress) {
  const std::int64_t intervals = output_intervals(options);
  const at::Tensor start = (u0.dim() == 1 ? u0.unsqueeze(0) : u0).to(at::kDouble);
  if (start.dim() != 2 || start.size(1) != grid.points())
    throw std::invalid_argument("solve: initial condition must have shape [B, " +
                                std::to_string(grid.points()) + "]");
  const bool adaptive = options.tolerance > 0.0;
  const std::int64_t substeps = steps_per_output(options.output_dt, options.stepper.dt);
  Etdrk4Options stepper_options = options.stepper;
  stepper_options.dt = options.output_dt / static_cast<double>(substeps);
  const Etdrk4Stepper stepper(grid, equation, stepper_options);
  StepperCache steppers(grid, equation, options.stepper);
  double h = options.stepper.dt;

  const double limit = options.blowup_factor * std::max(1.0, start.abs().max().item<double>());
  Solution solution;
  solution.t = output_times(options);
  solution.u = at::empty({start.size(0), intervals + 1, grid.points()}, start.options());

  DivergenceGuard guard(grid, start.size(0), limit, options.drop_diverged);
  at::Tensor v = grid.to_spectral(start);
  guard.check_physical(v, start, 0.0, 0.0, 0);
  solution.u.select(1, 0).copy_(start);
  for (std::int64_t i = 1; i <= intervals; ++i) {
    const double t_previous = static_cast<double>(i - 1) * options.output_dt;
    const double t = static_cast<double>(i) * options.output_dt;
    if (adaptive)
      advance_adaptive(v, steppers, h, t_previous, t, i, options, guard, solution);
    else
      advance_fixed(v, stepper, substeps, t_previous, i, options, guard, solution);
    const at::Tensor u = grid.to_physical(v);
    guard.check_physical(v, u, t, t_previous, i);
    solution.u.select(1, i).copy_(u);
    if (progress) progress(t, options.t_end);
  }
  solution.dt = adaptive ? options.t_end / static_cast<double>(solution.steps) : stepper.dt();
  guard.mask(solution.u);
  solution.diverged = guard.dropped();
  solution.failures = guard.failures();
  return solution;
}

}  // namespace bhpm::pde
