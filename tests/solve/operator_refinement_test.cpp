// Algorithm 1 on the paper's refinement problem (section 3, Fig. 3): a GP over operators
// with mean 0.1 u_xx and kernel 0.1^2 exp(-|v - v'|^2), conditioned on f(0) = 0, and the
// heat-like IBVP u0 = sin x on [-pi, pi]. L_c must fall as conditioning points are added.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gp/conditioned_gp.h"
#include "pde/initial_condition.h"
#include "solve/operator_refinement.h"
#include "solve/refinement_study.h"
#include "solve/spectral_ensemble.h"

using namespace bhpm;

namespace {

const pde::PeriodicGrid kRefinementGrid(-M_PI, M_PI, 32);

solve::EnsembleSolution solve_spectral(std::shared_ptr<const gp::FunctionSamples> samples) {
  pde::SolveOptions options;
  options.t_end = 2.0;
  options.output_dt = 0.1;
  options.stepper.dt = 1e-2;
  return solve::solve_spectral_ensemble(
      kRefinementGrid, samples,
      pde::initial_condition_from_expression(kRefinementGrid, "sin(x)", "u0"), options);
}

at::Tensor solve_one(const gp::ConditionedGp& sample) {
  return solve_spectral(
             std::make_shared<gp::ConditionedSamples>(std::vector<gp::ConditionedGp>{sample}))
      .u[0];
}

at::Tensor inputs_of(const at::Tensor& u) {
  return solve::spectral_root_inputs(kRefinementGrid, u, 3);
}

solve::RefinementOptions refinement_options(double tolerance, std::int64_t monte_carlo_points,
                                            std::int64_t descent_steps, std::int64_t max_rounds) {
  solve::RefinementOptions options;
  options.tolerance = tolerance;
  options.monte_carlo_points = monte_carlo_points;
  options.descent_steps = descent_steps;
  options.max_rounds = max_rounds;
  return options;
}

/// Algorithm 1 from two starts drawn from the heat operator prior.
std::vector<solve::RefinedSample> refine_two(const solve::RefinementOptions& options,
                                             const solve::RefinementProgress& progress = {}) {
  return solve::refine_operator_samples(
      {solve::heat_operator_prior(), solve::heat_operator_prior()}, solve_spectral, inputs_of,
      options, progress);
}

}  // namespace

TEST(OperatorRefinement, expected_variance_falls_until_the_tolerance) {
  const solve::RefinementOptions options = refinement_options(1e-6, 256, 20, 40);
  const std::vector<solve::RefinedSample> members = refine_two(options);
  ASSERT_EQ(members.size(), 2u);
  // Different streams: the two samples draw different conditioning values.
  EXPECT_FALSE(at::allclose(members[0].solution, members[1].solution));
  const solve::RefinedSample& refined = members[0];
  EXPECT_TRUE(refined.failure.empty());
  ASSERT_TRUE(refined.converged);
  ASSERT_GE(refined.rounds.size(), 2u);
  for (std::size_t r = 0; r < refined.rounds.size(); ++r)
    EXPECT_EQ(refined.rounds[r].conditioning_points, 1 + 8 * static_cast<std::int64_t>(r));
  EXPECT_GT(refined.rounds.front().expected_variance, 1e-4);  // a fifth of the prior's 1e-2
  EXPECT_LT(refined.rounds.back().expected_variance, options.tolerance);
  EXPECT_EQ(refined.operator_sample.size(), refined.rounds.back().conditioning_points);
  EXPECT_EQ(refined.solution.sizes(), (at::IntArrayRef{21, 32}));
}

// A budget too small for any round after the first: the first solve is kept, no point is
// added, and the members that had not converged are marked out of budget; the round
// status says so and estimates nothing left.
TEST(OperatorRefinement, a_spent_time_budget_stops_the_members_still_refining) {
  solve::RefinementOptions options = refinement_options(1e-12, 64, 0, 200);
  options.time_budget = 1e-9;
  std::vector<solve::RefinementStatus> statuses;
  solve::RefinementProgress progress;
  progress.round = [&](const solve::RefinementStatus& status) { statuses.push_back(status); };
  const std::vector<solve::RefinedSample> members = refine_two(options, progress);
  for (const solve::RefinedSample& member : members) {
    EXPECT_TRUE(member.out_of_budget);
    EXPECT_FALSE(member.converged);
    ASSERT_EQ(member.rounds.size(), 1u);
    EXPECT_EQ(member.operator_sample.size(), 1);
    EXPECT_TRUE(at::isfinite(member.solution).all().item<bool>());
  }
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_TRUE(statuses[0].budget_reached);
  EXPECT_EQ(statuses[0].solved, 2u);
  EXPECT_EQ(statuses[0].refining, 2u);
  EXPECT_EQ(statuses[0].seconds_left, 0.0);

  // Without a budget the same members refine on, and the status estimates the rounds left.
  options.time_budget = 0.0;
  options.max_rounds = 2;
  statuses.clear();
  const std::vector<solve::RefinedSample> refined = refine_two(options, progress);
  EXPECT_FALSE(refined[0].out_of_budget);
  EXPECT_EQ(refined[0].operator_sample.size(), 9);
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_GT(statuses[0].seconds_left, 0.0);
  EXPECT_EQ(statuses[1].refining, 0u);  // the last round allowed
  EXPECT_EQ(statuses[1].seconds_left, 0.0);
}

// A tolerance that no 3 x 8 points could reach on the first path (8 points a round, 3 rounds
// left of 4, 64 Monte Carlo inputs): after the first round every member takes two rounds'
// points at once (one more than it has run), is solved once more and stops, unconverged and
// marked out of reach.
TEST(OperatorRefinement, members_out_of_reach_take_the_rounds_left_at_once) {
  const std::vector<solve::RefinedSample> members = refine_two(refinement_options(1e-30, 64, 0, 4));
  for (const solve::RefinedSample& member : members) {
    EXPECT_TRUE(member.out_of_reach);
    EXPECT_FALSE(member.converged);
    ASSERT_EQ(member.rounds.size(), 2u);
    EXPECT_EQ(member.rounds[1].conditioning_points, 1 + 2 * 8);
    EXPECT_EQ(member.operator_sample.size(), 17);
    EXPECT_LT(member.rounds[1].expected_variance, member.rounds[0].expected_variance);
    EXPECT_TRUE(at::isfinite(member.solution).all().item<bool>());
  }
}

// On fixed Monte Carlo inputs, the chosen points lower L_c below its current value, and the
// gradient steps lower it below the greedy start.
TEST(OperatorRefinement, chosen_points_lower_the_expected_variance) {
  const gp::ConditionedGp prior = solve::heat_operator_prior();
  const at::Tensor v = inputs_of(solve_one(prior));
  solve::RefinementOptions options;
  options.descent_steps = 0;
  const at::Tensor greedy = solve::choose_conditioning_inputs(prior, v, options);
  options.descent_steps = 50;
  const at::Tensor descended = solve::choose_conditioning_inputs(prior, v, options);
  const double before = prior.variance(v).mean().item<double>();
  const double after_greedy = solve::expected_variance(prior, greedy, v).item<double>();
  const double after_descent = solve::expected_variance(prior, descended, v).item<double>();
  EXPECT_LT(after_greedy, 0.5 * before);
  EXPECT_LE(after_descent, after_greedy);
}

TEST(OperatorRefinement, rejects_bad_options) {
  solve::RefinementOptions options;
  options.tolerance = 0.0;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
  options.tolerance = 1e-3;
  options.new_points = 0;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
  options.new_points = 8;
  options.time_budget = -1.0;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
  options.time_budget = NAN;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
}

// The refinement study with adaptive steps: the same study as with small fixed steps, to
// about the solver tolerance (the chosen conditioning points depend continuously on the
// solutions), with the steps counted per stage and rejected ones only when adaptive.
TEST(RefinementStudy, adaptive_steps_reproduce_the_fixed_step_study) {
  solve::RefinementStudyOptions options;
  options.tolerances = {1e-2, 1e-3};
  options.samples = 1;
  options.grid_points = 16;
  options.t_end = 2.0;
  options.refinement.monte_carlo_points = 128;
  options.refinement.descent_steps = 10;
  options.dt = 1e-3;
  const solve::RefinementStudy fixed = solve::run_refinement_study(options);
  options.dt = 0.1;
  options.solver_tolerance = 1e-9;
  const solve::RefinementStudy adaptive = solve::run_refinement_study(options);
  EXPECT_TRUE(at::equal(fixed.conditioning_points, adaptive.conditioning_points));
  const double difference = (fixed.solutions - adaptive.solutions).abs().max().item<double>() /
                            fixed.solutions.abs().max().item<double>();
  EXPECT_LT(difference, 1e-6);
  EXPECT_EQ(fixed.rejected_steps.sum().item<std::int64_t>(), 0);
  EXPECT_GT(fixed.steps.min().item<std::int64_t>(), 0);
  // Fewer steps than the fixed 1e-3 ones: the heat-like solution is smooth.
  EXPECT_LT(adaptive.steps.sum().item<std::int64_t>(), fixed.steps.sum().item<std::int64_t>());

  options.solver_tolerance = 1.0;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
  options.solver_tolerance = -1e-9;
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
}
