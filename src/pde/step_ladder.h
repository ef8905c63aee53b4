#pragma once
/// One batch member's adaptive time steps within output intervals of length H (docs/solver.md,
/// "Adaptive time steps"): the member steps with h = H / 2^a and picks its level a by step
/// doubling, one step of h against two of h / 2, the pair kept when the estimate
/// ||v_h - v_{h/2,h/2}|| / ||v_{h/2,h/2}|| is at most the tolerance. With the factor
/// r = min(4, max(0.2, 0.9 (tolerance / error)^(1/5))), a rejected step retries at r h rounded
/// down onto the ladder (at least one rung finer); after a kept step the rung is kept and a
/// coarser one (2h, 4h) taken when r reaches it and the member's time is a multiple of that
/// step, so the member lands on each output time exactly, without a shortened step. Both
/// solvers of pde/periodic_solve.h step their members by it: the batched one
/// (pde/member_steps.h) and the one on plain arrays (pde/plain_periodic_solve.h).

#include <cstdint>
#include <string>

namespace bhpm::pde {

struct SolveOptions;

class StepLadder {
 public:
  /// options.output_dt is H, options.stepper.dt the first step tried (rounded down onto the
  /// ladder), options.tolerance > 0 the bound on the estimate.
  explicit StepLadder(const SolveOptions& options);

  /// Back to the start of an output interval (the level is kept from the last one).
  void start_interval();
  /// Whether the member has reached the end of the current output interval.
  bool interval_done() const { return ticks_ >= kWholeInterval; }
  /// The level a of the next step, and its size H / 2^a.
  int level() const { return level_; }
  double step() const;
  /// The member's time, the current interval starting at t_from.
  double time(double t_from) const;
  /// Records a trial of the current step whose estimate was `error` (not finite: rejected)
  /// and chooses the next level; true when the step is kept.
  bool record(double error);
  /// Why the member, just stepped from t with estimate `error`, cannot go on ("" if it can):
  /// its step below 1e-12 t_end, which only a blow-up forces, or
  /// SolveOptions::max_interval_steps trials within this interval without reaching its end.
  std::string stop_reason(double t, double error) const;

  std::int64_t accepted() const { return accepted_; }
  std::int64_t rejected() const { return rejected_; }

 private:
  static constexpr int kTickBits = 52;  ///< time within an interval in units of H / 2^52
  static constexpr std::int64_t kWholeInterval = std::int64_t{1} << kTickBits;

  /// Level after a step whose estimate was `error` (kept or not).
  int next_level(double error, bool kept) const;

  double interval_, tolerance_, t_end_;
  std::int64_t max_interval_steps_;  ///< 0: no bound
  int floor_level_;                  ///< the finest level allowed: H / 2^floor_level >= 1e-12 t_end
  int level_;
  std::int64_t ticks_ = 0;  ///< time within the interval, in H / 2^52
  std::int64_t accepted_ = 0, rejected_ = 0;
  std::int64_t interval_trials_ = 0;  ///< trials within the current interval
};

}  // namespace bhpm::pde
