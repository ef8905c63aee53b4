#pragma once
/// Adaptive time steps chosen per batch member (docs/solver.md, "Adaptive time steps").
///
/// Member b steps with h_b = H / 2^a_b, H the output interval, and picks its own level a_b by
/// step doubling: one step of h_b against two of h_b / 2, the pair kept (with Richardson's
/// correction) when ||v_h - v_{h/2,h/2}|| / ||v_{h/2,h/2}|| <= tolerance. With the factor
/// r = min(4, max(0.2, 0.9 (tolerance / error)^(1/5))), a rejected step retries at r h
/// rounded down onto the ladder (at least one rung finer); after a kept step the rung is kept
/// and a coarser one (2h, 4h) taken when r reaches it and the member's time is a multiple of
/// that step, so every member lands on each output time exactly, without a shortened step. The
/// members still short of the next output time are stepped together, each with its own coefficients
/// (gathered by level) and stage times, through the nonlinear term restricted to them
/// (NonlinearTerm::select_members): a member that needs small steps, or is blowing up, costs
/// its own steps and does not make the others take them. A member whose step would fall
/// below 1e-12 t_end is blowing up: it is dropped (DivergenceGuard) and the others go on, and
/// so is a member that has tried SolveOptions::max_interval_steps steps within one output
/// interval without reaching its end (when set): its cost is bounded whatever its dynamics do.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pde/divergence_guard.h"
#include "pde/equation.h"
#include "pde/etdrk4_stepper.h"
#include "pde/periodic_grid.h"

namespace bhpm::pde {

struct SolveOptions;

class MemberSteps {
 public:
  /// For `members` batch members of `equation` on `grid`; options.stepper.dt is the first
  /// step tried (rounded down onto the ladder), options.tolerance > 0 the local error bound.
  MemberSteps(const PeriodicGrid& grid, const Equation& equation, const SolveOptions& options,
              std::int64_t members);

  /// Advances every member of v [B, n/2+1] (spectral) that the guard has not dropped from
  /// t_from to t_from + output_dt; `output` is the index of that output time.
  void advance(at::Tensor& v, double t_from, std::int64_t output, DivergenceGuard& guard);

  /// The most steps any member has had accepted so far, and rejected.
  std::int64_t most_accepted() const;
  std::int64_t most_rejected() const;
  /// [B] steps accepted per member so far.
  const std::vector<std::int64_t>& accepted() const { return accepted_; }

 private:
  /// One step-doubling trial of the members `pending` (indices into the batch).
  void try_step(at::Tensor& v, const std::vector<std::int64_t>& pending, double t_from,
                std::int64_t output, DivergenceGuard& guard);
  /// Coefficients of the steps H / 2^level for each entry, [k, n/2+1] each (or [n/2+1] when
  /// every entry is the same level).
  Etdrk4StepCoefficients coefficients(const std::vector<int>& levels);
  const Etdrk4Stepper& stepper(int level);
  /// The nonlinear term of the members `pending` alone (null when the equation has none).
  const NonlinearTerm* term_for(const std::vector<std::int64_t>& pending, const at::Tensor& index);
  /// Level after a step of level a at `ticks` whose estimate was `error`.
  int next_level(int a, std::int64_t ticks, double error, bool accepted) const;

  const PeriodicGrid& grid_;
  const Equation& equation_;
  Etdrk4Options stepper_options_;
  double interval_, tolerance_, t_end_;
  std::int64_t max_interval_steps_;  ///< 0: no bound
  int check_every_;                  ///< trials between non-finite checks of the whole batch
  int floor_level_;                  ///< the finest level allowed: H / 2^floor_level >= 1e-12 t_end
  std::map<int, Etdrk4Stepper> steppers_;
  std::map<std::vector<std::int64_t>, std::shared_ptr<const NonlinearTerm>> terms_;
  std::vector<int> level_;           ///< a_b, kept from one output interval to the next
  std::vector<std::int64_t> ticks_;  ///< b's time within the interval, in H / 2^52
  std::vector<std::int64_t> accepted_, rejected_;
  std::vector<std::int64_t> interval_trials_;  ///< [B] trials within the current interval
  /// Why member i, just stepped from t with error estimate `error`, cannot go on ("" if it
  /// can): its step below the floor, or its trials in this interval at the bound.
  std::string stop_reason(std::size_t i, double t, double error) const;
};

}  // namespace bhpm::pde
