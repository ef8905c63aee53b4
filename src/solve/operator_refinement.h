#pragma once
/// The paper's Algorithm 1 (section 2.3): refine one operator sample and its IBVP solution
/// together. Starting from a conditioned GP (the prior conditioned on the inducing inputs
/// with a draw of q(u), or any V_c,0, f_c,0), repeat:
///   1. solve the IBVP under f~ = mu_c (the conditioned mean);
///   2. estimate L_c = E_{v ~ p(v | u~)} [ k_c(v, v) ] (Eq. 6) by Monte Carlo over
///      `monte_carlo_points` inputs v(x, t) at uniformly drawn grid points (x, t) of the
///      solution (the push-forward of U[Omega_st]);
///   3. stop if L_c < delta_c; otherwise choose n_c,new new inputs V_new minimising
///      L_c(V_c u V_new) - started greedily (each point where the current variance is
///      largest, then conditioned on) and moved by Adam down the gradient of L_c -, draw
///      f_new ~ p(f(V_new) | V_c, f_c) jointly and add them to the conditioning set.
/// Called again with a smaller tolerance it continues from where it stopped (Fig. 3).
/// S samples are refined together: each round solves the members still refining in one
/// batch (ConditionedSamples), so a spectral solve serves them all; a member whose solve
/// blows up is dropped and reported. Step 3 runs member by member over the threads
/// (pde/member_threads.h), each member with its own random stream and one intra-op thread.
///
/// Cost: a round costs about one batched IBVP solve, whose price grows with the members
/// still refining times their largest conditioning set. `max_rounds` bounds the rounds;
/// `time_budget` bounds the wall time: after each round the next one's time is estimated
/// from the last one's (scaled by members and set size), and if it would end past the
/// budget no further round starts. The members still refining then keep the solution of
/// their last round, unconverged, marked `out_of_budget`. The first solve always runs.
/// A member whose L_c no choice of the points of all the rounds left (new_points each) could
/// bring under the tolerance on its current path (gp::ExtendedVariance::least_mean, an
/// eigenvalue bound) is marked `out_of_reach`: it takes the points of the rounds left at
/// once (fewer only where they would outnumber its conditioning set), chosen on its
/// current path, and is solved once more and stops. Its rounds would have cost a full solve each
/// and left it unconverged all the same; their points are kept because each conditioned value adds
/// to the ensemble's spread the variance it resolves.

#include <ATen/core/Tensor.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gp/conditioned_gp.h"
#include "gp/discrepancy_field.h"
#include "solve/ensemble_solution.h"

namespace bhpm::solve {

struct RefinementOptions {
  double tolerance = 1e-6;                 ///< delta_c (> 0), in units of f^2
  std::int64_t new_points = 8;             ///< n_c,new (>= 1) per round
  std::int64_t monte_carlo_points = 1024;  ///< push-forward points for L_c (>= 1)
  std::int64_t max_rounds = 200;           ///< rounds before giving up (>= 1)
  std::int64_t descent_steps = 50;         ///< Adam steps on V_new per round (>= 0)
  double time_budget = 0.0;                ///< wall seconds for all rounds (>= 0; 0: no limit)
  double descent_rate = 0.02;              ///< Adam rate, per unit of each input's spread (> 0)
  std::uint64_t seed = 0;
  /// >= 0: start s is member first_member + s of the ensemble, which names it in its seeds,
  /// its discrepancy and the progress lines (a share of an ensemble solved by several
  /// processes, solve/predictor.h).
  std::int64_t first_member = 0;
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const RefinementOptions& options);

/// One pass of the loop: the conditioning set's size when the IBVP was solved, and L_c.
struct RefinementRound {
  std::int64_t conditioning_points = 0;
  double expected_variance = 0;
};

struct RefinedSample {
  gp::ConditionedGp operator_sample;    ///< mu_c is the refined sample f~
  at::Tensor solution;                  ///< [T, n]: the IBVP solved under it (NaN if diverged)
  at::Tensor inputs;                    ///< [P, D]: the push-forward points of the last L_c
  std::vector<RefinementRound> rounds;  ///< every L_c computed, in order
  bool converged = false;               ///< L_c < tolerance within max_rounds
  bool out_of_budget = false;           ///< stopped unconverged by the time budget
  bool out_of_reach = false;            ///< took the rounds left at once (tolerance out of reach)
  std::string failure;                  ///< why the sample blew up or was rejected; "" if not
  bool rejected = false;                ///< ill-posed along the initial condition, not solved
  double growth = NAN;                  ///< e-folds of its fastest resolved wave (last solve)
  /// > 0: ill-posed, solved with this much added diffusion (last solve); 0: not repaired.
  double added_diffusion = 0;
};

/// Solves the IBVP under each member's operator sample (its conditioned mean, plus its
/// model discrepancy when refine_operator_samples has one), all in one batch:
/// u [S', T, n] with diverged members marked (solve/ensemble_solution.h).
using EnsembleSolver = std::function<EnsembleSolution(std::shared_ptr<const gp::FunctionSamples>)>;
/// Time steps of the solves a counting solver made (EnsembleSolution::steps, summed).
struct StepCount {
  std::int64_t steps = 0;
  std::int64_t rejected_steps = 0;
};
/// `solve` that adds each solve's steps to `count`, which must outlive it: Algorithm 1
/// solves once per round, and the prediction's steps are their sum.
EnsembleSolver counting_steps(EnsembleSolver solve, StepCount& count);
/// The root inputs v [T n, D] of a solution u [T, n] at every grid point.
using SolutionInputs = std::function<at::Tensor(const at::Tensor&)>;
/// Where the refinement stands after a round: for progress lines and the time left.
struct RefinementStatus {
  std::int64_t round = 0;                 ///< 0-based round just finished
  std::size_t solved = 0;                 ///< members solved in it
  std::size_t refining = 0;               ///< members going on to the next round
  double median_expected_variance = NAN;  ///< median L_c of the members solved
  double elapsed_seconds = 0;             ///< since the refinement started
  /// Estimated seconds for the rounds still allowed (max_rounds and the budget), if every
  /// member refining now kept refining: an upper estimate; 0 when none is refining.
  double seconds_left = 0;
  bool budget_reached = false;  ///< the budget stopped the members still refining
};

/// Called after each member's L_c (member, round record) and after each round.
struct RefinementProgress {
  std::function<void(std::size_t, const RefinementRound&)> member;
  std::function<void(const RefinementStatus&)> round;
};

/// Runs Algorithm 1 for every start (member s = options.first_member + the start's index
/// draws its Monte Carlo points and f_new from derive_seed(options.seed, "refinement/<s>",
/// n_c)). With a `discrepancy` (count >= s + 1 for every member), member s is solved under mu_c,s +
/// delta_s (gp/discrepancy_field.h): the discrepancy is independent of f and leaves L_c alone.
/// Throws std::runtime_error naming the member when L_c is not finite.
std::vector<RefinedSample> refine_operator_samples(
    std::vector<gp::ConditionedGp> starts, const EnsembleSolver& solve,
    const SolutionInputs& inputs_of, const RefinementOptions& options,
    const RefinementProgress& progress = {},
    std::shared_ptr<const gp::DiscrepancyField> discrepancy = nullptr);

/// L_c(V_c u V_new) for fixed Monte Carlo inputs v [P, D]: mean_p k_c(v_p, v_p) of the
/// prior of `current` conditioned on its inputs and `new_inputs` [m, D] (differentiable
/// in new_inputs).
at::Tensor expected_variance(const gp::ConditionedGp& current, const at::Tensor& new_inputs,
                             const at::Tensor& v);

/// The n_c,new inputs step 3 chooses for Monte Carlo inputs v [P, D]: greedy start, then
/// Adam on L_c. Returns [new_points, D].
at::Tensor choose_conditioning_inputs(const gp::ConditionedGp& current, const at::Tensor& v,
                                      const RefinementOptions& options);

}  // namespace bhpm::solve
