#include "pde/plain_periodic_solve.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pde/divergence_guard.h"
#include "pde/member_threads.h"
#include "pde/plain_etdrk4.h"
#include "pde/step_ladder.h"

namespace bhpm::pde {

namespace {

using Spectrum = PlainEtdrk4::Spectrum;

/// max|u_j| over n values; NaN when one of them is not finite.
double peak_of(const double* u, std::int64_t n) {
  double peak = 0.0;
  for (std::int64_t j = 0; j < n; ++j) {
    if (!std::isfinite(u[j])) return NAN;
    peak = std::max(peak, std::abs(u[j]));
  }
  return peak;
}

bool all_finite(const Spectrum& v) {
  return std::all_of(v.begin(), v.end(), [](std::complex<double> z) {
    return std::isfinite(z.real()) && std::isfinite(z.imag());
  });
}

/// ||a - b|| / ||b|| (L2 over the spectrum, = physical L2 by Parseval), ||b|| at least 1e-300.
double relative_difference(const Spectrum& a, const Spectrum& b) {
  double difference = 0.0, size = 0.0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    difference += std::norm(a[j] - b[j]);
    size += std::norm(b[j]);
  }
  return std::sqrt(difference) / std::max(std::sqrt(size), 1e-300);
}

/// Why a member cannot go on, found while it stepped one output interval.
struct Failure {
  double t_bad;         ///< when it was found
  std::string why;      ///< the member's entry in Solution::failures when dropped
  std::string fatal;    ///< SolverDivergence's message when members are not dropped
  double time_reached;  ///< SolverDivergence::time_reached
};

/// One batch member's state and scratch arrays.
struct Member {
  Spectrum v, nv, whole, first, halves;
  PlainEtdrk4::Workspace work;
  StepLadder ladder;
  FftReals u;  ///< [n] physical values, for checks
  bool dropped = false;
  std::int64_t first_bad_output = -1;
  std::optional<Failure> failure;
};

/// The coefficients of the steps output_dt / 2^level, made once per level (thread-safe).
class CoefficientLadder {
 public:
  CoefficientLadder(const PeriodicGrid& grid, const Equation& equation, const SolveOptions& options)
      : grid_(grid), equation_(equation), options_(options.stepper), interval_(options.output_dt) {}

  const PlainEtdrk4::Coefficients& at_step(double dt) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto found = made_.find(dt);
    if (found != made_.end()) return found->second;
    Etdrk4Options options = options_;
    options.dt = dt;
    const Etdrk4Stepper stepper(grid_, equation_, options);
    return made_.emplace(dt, PlainEtdrk4::coefficients(stepper.coefficients())).first->second;
  }
  const PlainEtdrk4::Coefficients& at_level(int level) {
    return at_step(std::ldexp(interval_, -level));
  }

 private:
  const PeriodicGrid& grid_;
  const Equation& equation_;
  Etdrk4Options options_;
  double interval_;
  std::mutex mutex_;
  std::map<double, PlainEtdrk4::Coefficients> made_;
};

/// The solve's fixed settings, shared by every member's steps.
struct PlainSolve {
  const PlainEtdrk4& etdrk4;
  CoefficientLadder& coefficients;
  const SolveOptions& options;
  double limit;           ///< the largest max|u| allowed
  std::int64_t substeps;  ///< fixed steps per output interval
  double dt;              ///< the fixed step

  /// Records that member b blew up between t_good and t_bad (its u not sound at t_bad).
  void blew_up(Member& member, std::int64_t b, double t_bad, double t_good) const {
    member.u.resize(static_cast<std::size_t>(etdrk4.points()));
    etdrk4.to_physical(member.v, member.u.data(), member.work);
    const double peak = peak_of(member.u.data(), etdrk4.points());
    const std::string why = blow_up_text(t_bad, t_good, peak, b, limit);
    member.failure = Failure{t_bad, why, "solution " + why, t_good};
  }

  void fixed_steps(Member& member, std::int64_t b, double t_from) const {
    const PlainEtdrk4::Coefficients& c = coefficients.at_step(dt);
    for (std::int64_t s = 1; s <= substeps; ++s) {
      const double t = t_from + static_cast<double>(s - 1) * dt;
      if (etdrk4.has_nonlinear_part()) etdrk4.nonlinear(b, member.v, t, member.nv, member.work);
      etdrk4.step(b, member.v, member.nv, c, t, dt, member.whole, member.work);
      member.v.swap(member.whole);
      if (s % options.check_every == 0 && !all_finite(member.v))
        return blew_up(member, b, t_from + static_cast<double>(s) * dt, t_from);
    }
  }

  /// Step doubling with Richardson's correction, the ladder choosing each step.
  void adaptive_steps(Member& member, std::int64_t b, double t_from) const {
    StepLadder& ladder = member.ladder;
    ladder.start_interval();
    for (std::int64_t trial = 1; !ladder.interval_done(); ++trial) {
      const double t = ladder.time(t_from), h = ladder.step();
      const PlainEtdrk4::Coefficients& whole = coefficients.at_level(ladder.level());
      const PlainEtdrk4::Coefficients& half = coefficients.at_level(ladder.level() + 1);
      const bool nonlinear = etdrk4.has_nonlinear_part();
      if (nonlinear) etdrk4.nonlinear(b, member.v, t, member.nv, member.work);
      etdrk4.step(b, member.v, member.nv, whole, t, h, member.whole, member.work);
      etdrk4.step(b, member.v, member.nv, half, t, 0.5 * h, member.first, member.work);
      if (nonlinear) etdrk4.nonlinear(b, member.first, t + 0.5 * h, member.nv, member.work);
      etdrk4.step(b, member.first, member.nv, half, t + 0.5 * h, 0.5 * h, member.halves,
                  member.work);
      const double error = relative_difference(member.whole, member.halves);
      if (ladder.record(error))
        for (std::size_t j = 0; j < member.v.size(); ++j)  // h^5 terms cancel
          member.v[j] = member.halves[j] + (member.halves[j] - member.whole[j]) / 15.0;
      const std::string why = ladder.stop_reason(t, error);
      if (!why.empty()) {
        const std::string text = why + " in batch member " + std::to_string(b);
        member.failure = Failure{t, text, text, t};
        return;
      }
      if (trial % options.check_every == 0 && !all_finite(member.v))
        return blew_up(member, b, t_from + options.output_dt, t_from);
    }
  }

  /// Steps member b from t_from over one output interval and writes its state at the end
  /// into `snapshot` [n], checking it against the limit.
  void advance(Member& member, std::int64_t b, double t_from, double* snapshot) const {
    if (options.tolerance > 0.0)
      adaptive_steps(member, b, t_from);
    else
      fixed_steps(member, b, t_from);
    if (member.failure) return;
    const double t = t_from + options.output_dt;
    etdrk4.to_physical(member.v, snapshot, member.work);
    const double peak = peak_of(snapshot, etdrk4.points());
    if (!(peak <= limit)) {
      const std::string why = blow_up_text(t, t_from, peak, b, limit);
      member.failure = Failure{t, why, "solution " + why, t_from};
    }
  }
};

/// Ends the solve on the earliest failure of this interval (drop_diverged false), or drops
/// every failed member: state zeroed, snapshots NaN from `output` on.
void handle_failures(std::vector<Member>& members, std::int64_t output, bool drop,
                     std::vector<std::string>& failures) {
  const Member* earliest = nullptr;
  for (const Member& member : members)
    if (member.failure && (!earliest || member.failure->t_bad < earliest->failure->t_bad))
      earliest = &member;
  if (!earliest) return;
  if (!drop) throw SolverDivergence(earliest->failure->fatal, earliest->failure->time_reached);
  for (std::size_t b = 0; b < members.size(); ++b) {
    Member& member = members[b];
    if (!member.failure) continue;
    failures[b] = member.failure->why;
    member.first_bad_output = output;
    member.dropped = true;
    std::fill(member.v.begin(), member.v.end(), std::complex<double>{});
    member.failure.reset();
  }
}

}  // namespace

bool solves_on_plain_arrays(const PeriodicGrid& grid, const Equation& equation) {
  return grid.device().is_cpu() && (!equation.nonlinear || equation.nonlinear->evaluates_values());
}

Solution solve_periodic_plain(const PeriodicGrid& grid, const Equation& equation,
                              const at::Tensor& u0, const SolveOptions& options,
                              const ProgressCallback& progress) {
  if (!solves_on_plain_arrays(grid, equation))
    throw std::invalid_argument("solve: " + equation.describe() +
                                " cannot be solved on plain arrays (a CUDA grid, or a "
                                "nonlinear part that evaluates tensors only)");
  const at::Tensor times = output_times(options);  // validates the options
  const std::int64_t intervals = times.size(0) - 1;
  const at::Tensor start = batch_of_initial_conditions(grid, u0).contiguous();
  const std::int64_t batch = start.size(0), n = grid.points();
  const bool adaptive = options.tolerance > 0.0;
  const std::int64_t substeps = steps_per_output(options.output_dt, options.stepper.dt);

  const PlainEtdrk4 etdrk4(grid, equation, options.stepper.dealias);
  CoefficientLadder coefficients(grid, equation, options);
  const double limit = options.blowup_factor * std::max(1.0, start.abs().max().item<double>());
  const PlainSolve solve{etdrk4, coefficients, options,
                         limit,  substeps,     options.output_dt / static_cast<double>(substeps)};

  Solution solution;
  solution.t = times;
  solution.u = at::empty({batch, intervals + 1, n}, start.options());
  double* snapshots = solution.u.data_ptr<double>();
  const auto snapshot = [&](std::int64_t b, std::int64_t i) {
    return snapshots + (b * (intervals + 1) + i) * n;
  };
  solution.failures.assign(static_cast<std::size_t>(batch), "");
  std::vector<Member> members;
  for (std::int64_t b = 0; b < batch; ++b) {
    Member member{{}, {}, {}, {}, {}, etdrk4.workspace(), StepLadder(options), {}, false, -1, {}};
    const double* u = start.data_ptr<double>() + b * n;
    etdrk4.to_spectral(u, member.v);
    std::copy(u, u + n, snapshot(b, 0));
    const double peak = peak_of(u, n);
    if (!(peak <= limit)) {
      const std::string why = blow_up_text(0.0, 0.0, peak, b, limit);
      member.failure = Failure{0.0, why, "solution " + why, 0.0};
    }
    members.push_back(std::move(member));
  }
  handle_failures(members, 0, options.drop_diverged, solution.failures);

  for (std::int64_t i = 1; i <= intervals; ++i) {
    const double t_previous = static_cast<double>(i - 1) * options.output_dt;
    for_each_member(batch, [&](std::int64_t b) {
      if (!members[static_cast<std::size_t>(b)].dropped)
        solve.advance(members[static_cast<std::size_t>(b)], b, t_previous, snapshot(b, i));
    });
    handle_failures(members, i, options.drop_diverged, solution.failures);
    if (progress) progress(static_cast<double>(i) * options.output_dt, options.t_end);
  }

  solution.diverged = at::zeros({batch}, at::kBool);
  for (std::int64_t b = 0; b < batch; ++b) {
    const Member& member = members[static_cast<std::size_t>(b)];
    if (member.first_bad_output < 0) continue;
    solution.diverged[b] = true;
    solution.u[b].slice(0, member.first_bad_output).fill_(NAN);
  }
  if (adaptive) {
    for (const Member& member : members) {
      solution.steps = std::max(solution.steps, member.ladder.accepted());
      solution.rejected_steps = std::max(solution.rejected_steps, member.ladder.rejected());
      solution.member_steps.push_back(member.ladder.accepted());
    }
  } else {
    solution.steps = intervals * substeps;
  }
  solution.dt = adaptive ? options.t_end / static_cast<double>(solution.steps) : solve.dt;
  return solution;
}

}  // namespace bhpm::pde
