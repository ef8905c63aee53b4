#include "pde/step_ladder.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "pde/periodic_solve.h"

namespace bhpm::pde {

namespace {

/// The level whose step H / 2^level is the largest at most h (>= 0: never above H).
int level_at_most(double interval, double h) {
  return std::max(0, static_cast<int>(std::ceil(std::log2(interval / h) - 1e-9)));
}

}  // namespace

StepLadder::StepLadder(const SolveOptions& options)
    : interval_(options.output_dt),
      tolerance_(options.tolerance),
      t_end_(options.t_end),
      max_interval_steps_(options.max_interval_steps),
      floor_level_(std::min(
          static_cast<int>(std::floor(std::log2(options.output_dt / (1e-12 * options.t_end)))),
          kTickBits - 1)),
      level_(std::min(level_at_most(options.output_dt, options.stepper.dt), floor_level_)) {}

void StepLadder::start_interval() {
  ticks_ = 0;
  interval_trials_ = 0;
}

double StepLadder::step() const { return std::ldexp(interval_, -level_); }

double StepLadder::time(double t_from) const {
  return t_from + interval_ * std::ldexp(static_cast<double>(ticks_), -kTickBits);
}

bool StepLadder::record(double error) {
  const bool kept = std::isfinite(error) && error <= tolerance_;
  ++interval_trials_;
  if (kept) {
    ticks_ += kWholeInterval >> level_;
    ++accepted_;
  } else {
    ++rejected_;
  }
  level_ = next_level(std::isfinite(error) ? error : INFINITY, kept);
  return kept;
}

int StepLadder::next_level(double error, bool kept) const {
  // The controller's factor 0.9 (tolerance / error)^(1/5), within [0.2, 4].
  const double factor =
      error > 0.0 ? std::clamp(0.9 * std::pow(tolerance_ / error, 0.2), 0.2, 4.0) : 4.0;
  if (!kept)
    return std::max(level_ + 1, level_at_most(interval_, std::ldexp(interval_, -level_) * factor));
  // Kept: the next step of the same size is expected within the tolerance too, so the rung
  // is kept, and a coarser one taken only when the factor reaches it (and the member's time
  // is a multiple of its step): never finer after a kept step, which would alternate rungs.
  int level = level_;
  while (level > 0 && std::ldexp(1.0, level_ - level + 1) <= factor &&
         ticks_ % (kWholeInterval >> (level - 1)) == 0)
    --level;
  return level;
}

std::string StepLadder::stop_reason(double t, double error) const {
  std::ostringstream why;
  if (level_ > floor_level_) {
    why << "blew up by t = " << t << ": the adaptive step fell below " << 1e-12 * t_end_
        << " (error estimate " << error << " against tolerance " << tolerance_ << ")";
  } else if (max_interval_steps_ > 0 && ticks_ < kWholeInterval &&
             interval_trials_ >= max_interval_steps_) {
    why << "stopped at t = " << t << ": " << interval_trials_
        << " adaptive steps tried within one output interval (the most allowed) with steps "
           "down to "
        << step() << " (error estimate " << error << " against tolerance " << tolerance_ << ")";
  }
  return why.str();
}

}  // namespace bhpm::pde
