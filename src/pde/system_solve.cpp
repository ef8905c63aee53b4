#include "pde/system_solve.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "pde/output_times.h"
#include "pde/periodic_solve.h"
#include "pde/system_etdrk4.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::pde {

namespace {

/// Adaptive steps are h_0 / 2^j for j < kFinestLevel; positions count steps of h_0 / 2^30.
constexpr int kFinestLevel = 30;
/// A step this far inside the tolerance lets the next one double (local error ~ h^5).
constexpr double kDoublingMargin = 32.0;

/// ||a - b|| / ||b|| over the full spectrum of every field (Parseval: the entries of the
/// columns that the rfft halves count twice).
double relative_difference(const PeriodicBox& box, const FftSpectrum& a, const FftSpectrum& b) {
  const std::int64_t columns = box.spectrum_columns();
  double difference = 0.0, reference = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::int64_t c = static_cast<std::int64_t>(k) % columns;
    const double weight = (c == 0 || 2 * c == box.nx()) ? 1.0 : 2.0;
    difference += weight * std::norm(a[k] - b[k]);
    reference += weight * std::norm(b[k]);
  }
  return std::sqrt(difference / reference);
}

/// Throws SolverDivergence unless every field of u [q, points] is finite and within `limit`.
void check_sound(const FieldSystem& system, const double* u, std::int64_t points, double limit,
                 double t, double t_good) {
  for (std::int64_t i = 0; i < system.size(); ++i) {
    double peak = 0.0;
    for (std::int64_t p = 0; p < points; ++p) {
      const double value = std::abs(u[i * points + p]);
      peak = std::isnan(value) ? value : std::max(peak, value);
    }
    if (!(peak <= limit))
      throw SolverDivergence(
          "solution blew up by t = " + util::format_significant(t, 6) +
              " (last sound state at t = " + util::format_significant(t_good, 6) + "): max|" +
              system.fields[i] + "| = " + util::format_significant(peak, 4) + " (limit " +
              util::format_significant(limit, 4) + ")",
          t_good);
  }
}

/// Steps kept between checks of the state inside an output interval.
constexpr std::int64_t kCheckEvery = 16;

/// Checks a spectral state at time t (the last one checked sound at t_good).
using StateCheck = std::function<void(const FftSpectrum& v, double t, double t_good)>;

/// Steps a state through output intervals, at fixed or adaptive step sizes, checking it
/// every kCheckEvery steps kept.
class IntervalStepper {
 public:
  IntervalStepper(SystemEtdrk4& stepper, const SystemSolveOptions& options, StateCheck check)
      : stepper_(stepper), options_(options), check_(std::move(check)) {
    substeps_ = steps_per_output(options.output_dt, options.dt);
    h0_ = options.output_dt / static_cast<double>(substeps_);
  }

  /// Advances v [q, modes] by one output interval from time t.
  void advance(FftSpectrum& v, double t, SystemSolution& solution) {
    if (options_.tolerance == 0.0) {
      FftSpectrum next(v.size());
      for (std::int64_t s = 0; s < substeps_; ++s) {
        stepper_.step(v, coefficients(0), next);
        v.swap(next);
        if (++solution.steps % kCheckEvery == 0) check_(v, t + h0_ * (s + 1), t);
      }
      return;
    }
    const std::int64_t end = substeps_ << kFinestLevel;
    std::int64_t position = 0;
    FftSpectrum full(v.size()), half(v.size()), halves(v.size());
    while (position < end) {
      stepper_.step(v, coefficients(level_), full);
      stepper_.step(v, coefficients(level_ + 1), half);
      stepper_.step(half, coefficients(level_ + 1), halves);
      const double error = relative_difference(stepper_.box(), full, halves);
      if (!(error <= options_.tolerance)) {
        ++solution.rejected_steps;
        if (++level_ >= kFinestLevel - 1)
          throw SolverDivergence(
              "solution blew up near t = " +
                  util::format_significant(t + h0_ * position / std::exp2(kFinestLevel), 6) +
                  ": the step fell below 2^-30 of " + util::format_significant(h0_, 4) +
                  " without meeting the tolerance",
              t);
        continue;
      }
      v.swap(halves);
      position += std::int64_t{1} << (kFinestLevel - level_);
      if (++solution.steps % kCheckEvery == 0)
        check_(v, t + h0_ * position / std::exp2(kFinestLevel), t);
      const std::int64_t doubled = std::int64_t{1} << (kFinestLevel - level_ + 1);
      if (error * kDoublingMargin < options_.tolerance && level_ > 0 && position % doubled == 0)
        --level_;
    }
  }

 private:
  const SystemEtdrk4::Coefficients& coefficients(int level) {
    auto found = cache_.find(level);
    if (found == cache_.end())
      found = cache_.emplace(level, stepper_.coefficients(h0_ / std::exp2(level))).first;
    return found->second;
  }

  SystemEtdrk4& stepper_;
  const SystemSolveOptions& options_;
  StateCheck check_;
  std::int64_t substeps_;
  double h0_;
  int level_ = 0;
  std::map<int, SystemEtdrk4::Coefficients> cache_;
};

}  // namespace

void validate(const SystemSolveOptions& options) {
  const std::string owner = "solver";
  validate_output_times(options.t_end, options.output_dt, owner);
  util::require_positive(options.dt, owner, "dt");
  util::require_unit_interval(options.tolerance, owner, "tolerance", "(0: fixed steps of dt)");
  util::require_above(options.blowup_factor, 1.0, owner, "blowup_factor");
  util::require_at_least(options.contour_points, 8, owner, "contour_points");
}

SystemSolution solve_field_system(const PeriodicBox& box, const FieldSystem& system,
                                  const std::vector<double>& u0, const SystemSolveOptions& options,
                                  const ProgressCallback& progress,
                                  const PointwiseNonlinearity* nonlinearity) {
  validate(options);
  const std::int64_t q = system.size(), points = box.points();
  if (static_cast<std::int64_t>(u0.size()) != q * points)
    throw std::invalid_argument("system solve: u0 has " + std::to_string(u0.size()) +
                                " values; the box's " + std::to_string(q) + " fields need " +
                                std::to_string(q * points));
  SystemEtdrk4 stepper(box, system, options.contour_points, nonlinearity);
  double peak = 0.0;
  for (double value : u0) peak = std::max(peak, std::abs(value));
  const double limit = options.blowup_factor * std::max(1.0, peak);
  check_sound(system, u0.data(), points, limit, 0.0, 0.0);
  std::vector<double> state(static_cast<std::size_t>(q * points));
  IntervalStepper intervals(stepper, options, [&](const FftSpectrum& v, double t, double t_good) {
    stepper.to_physical(v, state.data());
    check_sound(system, state.data(), points, limit, t, t_good);
  });

  const std::int64_t outputs = std::llround(options.t_end / options.output_dt);
  SystemSolution solution;
  solution.u.resize(static_cast<std::size_t>((outputs + 1) * q * points));
  std::copy(u0.begin(), u0.end(), solution.u.begin());
  solution.t.push_back(0.0);
  FftSpectrum v;
  stepper.to_spectral(u0.data(), v);
  for (std::int64_t k = 1; k <= outputs; ++k) {
    const double t_start = options.output_dt * static_cast<double>(k - 1);
    const double t = options.output_dt * static_cast<double>(k);
    intervals.advance(v, t_start, solution);
    double* snapshot = solution.u.data() + k * q * points;
    stepper.to_physical(v, snapshot);
    check_sound(system, snapshot, points, limit, t, t_start);
    solution.t.push_back(t);
    if (progress) progress(t, options.t_end);
  }
  return solution;
}

}  // namespace bhpm::pde
