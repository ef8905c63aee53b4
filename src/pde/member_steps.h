#pragma once
/// Adaptive time steps chosen per batch member (docs/solver.md, "Adaptive time steps"), for
/// the batched solver of pde/periodic_solve.h: each member climbs its own ladder of steps
/// H / 2^a (pde/step_ladder.h). The members still short of the next output time are stepped
/// together, each with its own coefficients (gathered by level) and stage times, through the
/// nonlinear term restricted to them (NonlinearTerm::select_members): a member that needs
/// small steps, or is blowing up, costs its own steps and does not make the others take them.
/// A member that StepLadder::stop_reason stops is dropped (DivergenceGuard) and the others go
/// on: its cost is bounded whatever its dynamics do.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "pde/divergence_guard.h"
#include "pde/equation.h"
#include "pde/etdrk4_stepper.h"
#include "pde/periodic_grid.h"
#include "pde/step_ladder.h"

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
  std::vector<std::int64_t> accepted() const;

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

  const PeriodicGrid& grid_;
  const Equation& equation_;
  Etdrk4Options stepper_options_;
  double interval_;
  int check_every_;  ///< trials between non-finite checks of the whole batch
  std::map<int, Etdrk4Stepper> steppers_;
  std::map<std::vector<std::int64_t>, std::shared_ptr<const NonlinearTerm>> terms_;
  std::vector<StepLadder> ladders_;  ///< [B]
};

}  // namespace bhpm::pde
