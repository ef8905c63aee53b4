// PINN solves (paper appendix C): Burgers' equation under exact operator samples against
// the ETDRK4 reference and, between boundary conditions, against an exact front; input
// validation, and a diverging member that is reported and leaves the other members'
// numbers unchanged.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/periodic_solve.h"
#include "solve/burgers_operator.h"
#include "solve/pinn_solver.h"
#include "support/error_message.h"

using namespace bhpm;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

/// The Burgers problem of the paper's data: u0 = -sin(pi x / 8) on [-8, 8) (n = 64),
/// outputs at t = 0, 0.25, ..., t_end.
solve::PinnProblem burgers_problem(double t_end) {
  const pde::PeriodicGrid grid(-8.0, 8.0, 64);
  const std::int64_t times = static_cast<std::int64_t>(std::lround(t_end / 0.25)) + 1;
  return {solve::PinnDomain::periodic(grid), -at::sin(M_PI * grid.x() / 8.0),
          at::linspace(0.0, t_end, times, at::kDouble)};
}

/// The reference: ETDRK4 on the same grid and times, [T, n].
at::Tensor burgers_reference(const solve::PinnProblem& problem) {
  pde::EquationOptions equation;
  equation.name = "burgers";
  pde::SolveOptions options;
  options.t_end = problem.t[-1].item<double>();
  options.output_dt = (problem.t[1] - problem.t[0]).item<double>();
  options.stepper.dt = 1e-2;
  const pde::PeriodicGrid grid(problem.domain.x_min, problem.domain.x_max,
                               problem.domain.x.size(0));
  return pde::solve_periodic(grid, pde::make_equation(equation), problem.u0, options).u[0];
}

/// A small network and batch at a high rate, so that a solve takes seconds.
solve::PinnOptions quick_options(std::int64_t iterations) {
  solve::PinnOptions options;
  options.network.hidden_layers = 4;
  options.network.width = 32;
  options.iterations = iterations;
  options.collocation_points = 256;
  options.boundary_points = 64;
  options.initial_points = 128;
  options.learning_rate = 2e-2;
  options.final_learning_rate = 1e-4;
  options.seed = 5;
  return options;
}

/// The viscous Burgers front u = 0.2 - 0.5 tanh(2.5 (x - 0.2 t)), exact for nu = 0.1.
double burgers_front(double x, double t) { return 0.2 - 0.5 * std::tanh(2.5 * (x - 0.2 * t)); }
double burgers_front_slope(double x, double t) {
  return -1.25 / std::pow(std::cosh(2.5 * (x - 0.2 * t)), 2);
}

/// The front on [-2, 2] (32 Chebyshev intervals) to t = 1, u = g at the left end and
/// 2 u + u_x = g at the right, both g from the front.
solve::PinnProblem bounded_front_problem() {
  const pde::ChebyshevGrid grid(-2.0, 2.0, 32);
  pde::BoundaryConditions conditions;
  conditions.left.push_back(
      pde::BoundaryCondition::dirichlet([](double t) { return burgers_front(-2.0, t); }, "front"));
  conditions.right.push_back(pde::BoundaryCondition::robin(
      2.0, 1.0, [](double t) { return 2.0 * burgers_front(2.0, t) + burgers_front_slope(2.0, t); },
      "front"));
  const at::Tensor u0 = 0.2 - 0.5 * at::tanh(2.5 * grid.x());
  return {solve::PinnDomain::bounded(grid, std::move(conditions)), u0,
          at::linspace(0.0, 1.0, 5, at::kDouble)};
}

double relative_l2(const at::Tensor& a, const at::Tensor& b) {
  return ((a - b).norm() / b.norm()).item<double>();
}

/// The exact Burgers operator for every member but `bad`, whose values (and gradients)
/// turn NaN from its `from_call`-th evaluation on (0-based).
class FailingMemberSamples final : public gp::FunctionSamples {
 public:
  FailingMemberSamples(std::int64_t count, std::int64_t bad, std::int64_t from_call)
      : exact_(count), bad_(bad), from_call_(from_call) {}
  std::int64_t count() const override { return exact_.count(); }
  std::int64_t dimensions() const override { return exact_.dimensions(); }
  at::Tensor evaluate(const at::Tensor& v) const override {
    at::Tensor scale = at::ones({count(), 1}, at::kDouble);
    if (calls_++ >= from_call_) scale[bad_] = std::numeric_limits<double>::quiet_NaN();
    return exact_.evaluate(v) * scale;
  }

 private:
  testing_operator::ExactBurgersSamples exact_;
  std::int64_t bad_, from_call_;
  mutable std::int64_t calls_ = 0;
};

/// The exact Burgers operator, plus for member `bad` a term 0 sqrt(u - u): its values stay
/// finite, its gradients are NaN (0 / 0 in the square root's derivative).
class NanGradientSamples final : public gp::FunctionSamples {
 public:
  NanGradientSamples(std::int64_t count, std::int64_t bad) : exact_(count), bad_(bad) {}
  std::int64_t count() const override { return exact_.count(); }
  std::int64_t dimensions() const override { return exact_.dimensions(); }
  at::Tensor evaluate(const at::Tensor& v) const override {
    std::vector<at::Tensor> members = exact_.evaluate(v).unbind(0);
    const at::Tensor u = v[bad_].select(1, 0);
    members[bad_] = members[bad_] + 0.0 * at::sqrt(u - u);
    return at::stack(members);
  }

 private:
  testing_operator::ExactBurgersSamples exact_;
  std::int64_t bad_;
};

/// Samples with a chosen count and dimension and a fixed output shape, for the checks.
class ShapedSamples final : public gp::FunctionSamples {
 public:
  ShapedSamples(std::int64_t count, std::int64_t dimensions, bool wrong_output = false)
      : count_(count), dimensions_(dimensions), wrong_output_(wrong_output) {}
  std::int64_t count() const override { return count_; }
  std::int64_t dimensions() const override { return dimensions_; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    const at::Tensor f = v.select(2, 0);
    return wrong_output_ ? f.unsqueeze(-1) : f;
  }

 private:
  std::int64_t count_, dimensions_;
  bool wrong_output_;
};

}  // namespace

// Two members with the exact operator reproduce ETDRK4 on t in [0, 2] (the front steepens
// but has not formed; max |u| stays 1). A 4 x 32 network, 2000 iterations of 256
// collocation points at rate 2e-2 -> 1e-4: measured relative L2 errors over all 9 x 64
// outputs 0.0080 and 0.0102 (seed 5; 4 members: 0.006-0.010), in 15-18 s on one thread of a
// busy 2-core machine (about half of it page faults: the test binary keeps glibc's default
// malloc settings). 1500 iterations gave 0.010-0.015; a 3 x 32 network, 3000 iterations
// at rate 3e-3 (512 points), 0.02-0.04.
// Tolerance 0.03, three times the measured error.
TEST(PinnSolver, burgers_matches_the_spectral_reference) {
  const solve::PinnProblem problem = burgers_problem(2.0);
  const at::Tensor reference = burgers_reference(problem);
  const testing_operator::ExactBurgersSamples samples(2);
  std::vector<std::int64_t> reported;
  const solve::EnsembleSolution solution = solve::solve_pinn_ensemble(
      problem, samples, quick_options(2000),
      [&](std::int64_t iteration, const solve::PinnLoss& loss) {
        EXPECT_EQ(loss.total.sizes(), (at::IntArrayRef{2}));
        reported.push_back(iteration);
      },
      1000);
  EXPECT_EQ(reported, (std::vector<std::int64_t>{1000, 2000}));
  ASSERT_EQ(solution.u.sizes(), (at::IntArrayRef{2, problem.t.size(0), 64}));
  EXPECT_TRUE(solution.x.equal(problem.domain.x));
  EXPECT_TRUE(solution.t.equal(problem.t));
  EXPECT_EQ(solution.diverged_count(), 0);
  EXPECT_EQ(solution.failures, (std::vector<std::string>{"", ""}));
  for (std::int64_t s = 0; s < 2; ++s) {
    const double error = relative_l2(solution.u[s], reference);
    RecordProperty("relative_l2_member_" + std::to_string(s), std::to_string(error));
    EXPECT_LT(error, 0.03) << "member " << s;
  }
}

// Between a Dirichlet and a Robin condition, the exact operator's members reproduce the
// front at the Chebyshev points and output times: measured relative L2 errors 0.0129 and
// 0.0058 (1500 iterations of quick_options, seed 5; 4 s); tolerance 0.03.
TEST(PinnSolver, burgers_between_boundary_conditions_matches_the_exact_front) {
  const solve::PinnProblem problem = bounded_front_problem();
  at::Tensor exact = at::empty({problem.t.size(0), problem.domain.x.size(0)}, at::kDouble);
  for (std::int64_t i = 0; i < exact.size(0); ++i)
    for (std::int64_t j = 0; j < exact.size(1); ++j)
      exact[i][j] = burgers_front(problem.domain.x[j].item<double>(), problem.t[i].item<double>());
  const solve::EnsembleSolution solution = solve::solve_pinn_ensemble(
      problem, testing_operator::ExactBurgersSamples(2), quick_options(1500));
  ASSERT_EQ(solution.u.sizes(), (at::IntArrayRef{2, 5, 33}));
  EXPECT_TRUE(solution.x.equal(problem.domain.x));
  EXPECT_EQ(solution.diverged_count(), 0);
  for (std::int64_t s = 0; s < 2; ++s) {
    const double error = relative_l2(solution.u[s], exact);
    RecordProperty("relative_l2_member_" + std::to_string(s), std::to_string(error));
    std::printf("member %lld: relative L2 %.4g\n", static_cast<long long>(s), error);
    EXPECT_LT(error, 0.03) << "member " << s;
  }
}

// The boundary data drive the solution: with the left end's data raised by 0.1 t (still
// meeting u0 at t = 0), the member's u there follows the new data, not the front. Measured
// |u - g| 0.0038, 0.0018, 0.0037, 0.0118 at t = 0.25, 0.5, 0.75, 1, against the 0.025-0.1
// the data moved; the bound is 30 % of that move.
TEST(PinnSolver, the_solution_follows_the_boundary_data) {
  solve::PinnProblem problem = bounded_front_problem();
  problem.domain.conditions.left[0].value = [](double t) {
    return burgers_front(-2.0, t) + 0.1 * t;
  };
  const solve::EnsembleSolution solution = solve::solve_pinn_ensemble(
      problem, testing_operator::ExactBurgersSamples(1), quick_options(1500));
  for (std::int64_t i = 1; i < problem.t.size(0); ++i) {
    const double t = problem.t[i].item<double>();
    const double miss =
        std::abs(solution.u[0][i][0].item<double>() - burgers_front(-2.0, t) - 0.1 * t);
    std::printf("t = %g: |u - g| = %.3g\n", t, miss);
    EXPECT_LT(miss, 0.3 * 0.1 * t) << "t = " << t;
  }
}

TEST(PinnSolver, a_diverging_member_is_reported_and_isolated) {
  const solve::PinnProblem problem = burgers_problem(1.0);
  const solve::PinnOptions options = quick_options(60);
  // Member 1 turns NaN at its 21st evaluation, i.e. at iteration 21.
  const FailingMemberSamples failing(2, 1, 20);
  std::vector<double> member_0_losses;
  const solve::EnsembleSolution mixed = solve::solve_pinn_ensemble(
      problem, failing, options,
      [&](std::int64_t, const solve::PinnLoss& loss) {
        member_0_losses.push_back(loss.total[0].item<double>());
      },
      10);
  const solve::EnsembleSolution alone =
      solve::solve_pinn_ensemble(problem, testing_operator::ExactBurgersSamples(1), options);

  EXPECT_EQ(mixed.diverged_count(), 1);
  EXPECT_FALSE(mixed.diverged[0].item<bool>());
  EXPECT_TRUE(mixed.diverged[1].item<bool>());
  EXPECT_EQ(mixed.failures[0], "");
  EXPECT_THAT(mixed.failures[1], HasSubstr("not finite at iteration 21"));
  EXPECT_TRUE(at::isnan(mixed.u[1]).all().item<bool>());
  EXPECT_EQ(member_0_losses.size(), 6u);
  // Member 0 is trained exactly as without member 1.
  ASSERT_TRUE(at::isfinite(mixed.u[0]).all().item<bool>());
  EXPECT_TRUE(mixed.u[0].equal(alone.u[0]))
      << "max difference " << (mixed.u[0] - alone.u[0]).abs().max().item<double>();
}

TEST(PinnSolver, a_member_with_non_finite_gradients_is_reported_and_isolated) {
  const solve::PinnProblem problem = burgers_problem(1.0);
  const solve::PinnOptions options = quick_options(10);
  const solve::EnsembleSolution mixed =
      solve::solve_pinn_ensemble(problem, NanGradientSamples(2, 0), options);
  const solve::EnsembleSolution alone =
      solve::solve_pinn_ensemble(problem, testing_operator::ExactBurgersSamples(2), options);
  EXPECT_TRUE(mixed.diverged[0].item<bool>());
  EXPECT_FALSE(mixed.diverged[1].item<bool>());
  EXPECT_EQ(mixed.failures[0], "PINN gradient not finite at iteration 1");
  EXPECT_TRUE(at::isnan(mixed.u[0]).all().item<bool>());
  EXPECT_TRUE(mixed.u[1].equal(alone.u[1]));
}

TEST(PinnSolver, every_member_diverging_stops_the_training) {
  const solve::PinnProblem problem = burgers_problem(1.0);
  const FailingMemberSamples failing(1, 0, 0);
  std::vector<std::int64_t> reported;
  const solve::EnsembleSolution solution = solve::solve_pinn_ensemble(
      problem, failing, quick_options(1000),
      [&](std::int64_t iteration, const solve::PinnLoss&) { reported.push_back(iteration); });
  EXPECT_EQ(reported, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(solution.diverged_count(), 1);
  EXPECT_THAT(solution.failures[0], HasSubstr("loss not finite at iteration 1 (residual nan"));
  EXPECT_TRUE(at::isnan(solution.u).all().item<bool>());
}

TEST(PinnSolver, rejects_bad_options) {
  const solve::PinnProblem problem = burgers_problem(1.0);
  const testing_operator::ExactBurgersSamples samples(1);
  auto fails_with = [&](auto change) {
    solve::PinnOptions options = quick_options(1);
    change(options);
    return error_message([&] { solve::solve_pinn_ensemble(problem, samples, options); });
  };
  EXPECT_THAT(fails_with([](auto& o) { o.iterations = 0; }),
              HasSubstr("PINN: iterations must be >= 1 (got 0)"));
  EXPECT_THAT(fails_with([](auto& o) { o.collocation_points = -3; }),
              HasSubstr("collocation_points must be >= 1 (got -3)"));
  EXPECT_THAT(fails_with([](auto& o) { o.boundary_points = 0; }),
              HasSubstr("boundary_points must be >= 1 (got 0)"));
  EXPECT_THAT(fails_with([](auto& o) { o.initial_points = 0; }),
              HasSubstr("initial_points must be >= 1 (got 0)"));
  EXPECT_THAT(fails_with([](auto& o) { o.learning_rate = 0; }),
              HasSubstr("PINN: learning_rate must be > 0 (got 0)"));
  EXPECT_THAT(fails_with([](auto& o) { o.final_learning_rate = std::nan(""); }),
              HasSubstr("final_learning_rate must be > 0 (got nan)"));
  EXPECT_THAT(fails_with([](auto& o) { o.network.width = 0; }),
              HasSubstr("PINN: network.width must be >= 1 (got 0)"));
  EXPECT_THAT(
      error_message([&] { solve::solve_pinn_ensemble(problem, samples, quick_options(1), {}, 0); }),
      HasSubstr("report_every must be >= 1 (got 0)"));
  solve::PinnOptions any_leaves = quick_options(1);
  any_leaves.network.leaves = 0;  // the solver sets it to S
  EXPECT_NO_THROW(solve::validate(any_leaves));
}

TEST(PinnSolver, rejects_bad_problems_and_samples) {
  const testing_operator::ExactBurgersSamples samples(1);
  const solve::PinnOptions options = quick_options(1);
  auto fails_with = [&](auto change, const gp::FunctionSamples& f) {
    solve::PinnProblem problem = burgers_problem(1.0);
    change(problem);
    return error_message([&] { solve::solve_pinn_ensemble(problem, f, options); });
  };
  auto keep = [](solve::PinnProblem&) {};
  EXPECT_THAT(
      fails_with([](auto& p) { p.u0 = p.u0.narrow(0, 0, 10); }, samples),
      HasSubstr("u0 must be a real [n] tensor with n = grid points = 64 (got [10] Double)"));
  EXPECT_THAT(fails_with([](auto& p) { p.u0[3] = std::nan(""); }, samples),
              HasSubstr("u0 must be finite"));
  EXPECT_THAT(fails_with([](auto& p) { p.t = p.t.narrow(0, 0, 1); }, samples),
              HasSubstr("T >= 2 output times (got [1] Double)"));
  EXPECT_THAT(fails_with([](auto& p) { p.t = p.t + 0.5; }, samples),
              HasSubstr("t[0] must be 0, the time of u0 (got 0.5)"));
  EXPECT_THAT(fails_with([](auto& p) { p.t[2] = 0.25; }, samples),
              HasSubstr("t must be strictly increasing (got t[2] = 0.25 after 0.25)"));
  EXPECT_THAT(fails_with(keep, ShapedSamples(0, 3)),
              HasSubstr("must hold S >= 1 functions (got S = 0)"));
  EXPECT_THAT(fails_with(keep, ShapedSamples(1, 1)), HasSubstr("needs K in [1, 6] (got D = 1)"));
  EXPECT_THAT(fails_with(keep, ShapedSamples(1, 8)), HasSubstr("needs K in [1, 6] (got D = 8)"));
  EXPECT_THAT(fails_with(keep, ShapedSamples(2, 3, true)),
              HasSubstr("evaluate(v [2, 256, 3] Double) must return [S, P] = [2, 256] "
                        "(got [2, 256, 1] Double)"));
}

TEST(PinnSolver, refuses_a_condition_of_the_operators_order) {
  solve::PinnProblem problem = bounded_front_problem();
  problem.domain.conditions.right.push_back(pde::BoundaryCondition::derivative(
      2, [](double) { return 0.0; }, "0"));
  EXPECT_THAT(error_message([&] {
                solve::solve_pinn_ensemble(problem, testing_operator::ExactBurgersSamples(1),
                                           quick_options(1));
              }),
              HasSubstr("the condition u_xx = 0 at the right end is of derivative order 2; an "
                        "operator of order K = 2 takes conditions of order below K"));
}

TEST(PinnSolver, kdv_shaped_operators_train_with_three_derivatives) {
  // K = 3 (D = 4): the Taylor pass carries u_xxx and the periodic loss covers u, u_x, u_xx.
  const solve::PinnProblem problem = burgers_problem(1.0);
  const ShapedSamples samples(2, 4);
  std::vector<double> boundary;
  const solve::EnsembleSolution solution = solve::solve_pinn_ensemble(
      problem, samples, quick_options(5),
      [&](std::int64_t, const solve::PinnLoss& loss) {
        boundary.push_back(loss.boundary[1].item<double>());
      },
      5);
  ASSERT_EQ(boundary.size(), 1u);
  EXPECT_GT(boundary[0], 0.0);
  EXPECT_EQ(solution.diverged_count(), 0);
}
