// ETDRK4 solves against exact solutions: heat (closed form), the KdV soliton, viscous
// Burgers through Cole-Hopf, and the fourth-order convergence in the time step, also for
// a term that changes in time (the stage times); adaptive
// steps against one- and two-soliton KdV solutions, and their error against the tolerance;
// the plain-array engine against the batched one.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pde/dataset_defaults.h"
#include "pde/equation.h"
#include "pde/exact_solutions.h"
#include "pde/initial_condition.h"
#include "pde/member_threads.h"
#include "pde/periodic_solve.h"
#include "pde/plain_periodic_solve.h"
#include "support/tensors.h"

using namespace bhpm::pde;
using testing::HasSubstr;

namespace {

Equation equation_named(const std::string& name, double nu = 0.1) {
  EquationOptions options;
  options.name = name;
  options.nu = nu;
  return make_equation(options);
}

SolveOptions solve_options(double t_end, double output_dt, double dt) {
  SolveOptions options;
  options.t_end = t_end;
  options.output_dt = output_dt;
  options.stepper.dt = dt;
  return options;
}

using bhpm::testing_support::max_abs;

/// u_t = u^2, solved by u0 / (1 - u0 t): from 2 it blows up at t = 0.5, from 0.1 it lives on.
Equation quadratic_growth() {
  EquationOptions options;
  options.name = "general";
  options.nonlinear = "u^2";
  return make_equation(options);
}

/// [0, 2] with outputs every 0.25, adaptive steps to 1e-10, members that fail dropped.
SolveOptions dropping_adaptive_options() {
  SolveOptions options = solve_options(2.0, 0.25, 0.25);
  options.tolerance = 1e-10;
  options.drop_diverged = true;
  return options;
}

/// N(u, t) = cos(omega t) u: with L = nu d^2/dx^2 every Fourier mode solves
/// u_k' = (cos(omega t) - nu k^2) u_k, so u_k(t) = u_k(0) exp(sin(omega t) / omega - nu k^2 t).
class ModulatedGrowth final : public NonlinearTerm {
 public:
  explicit ModulatedGrowth(double omega) : omega_(omega) {}
  int max_derivative() const override { return 0; }
  at::Tensor evaluate(const at::Tensor& derivatives) const override {
    return evaluate_at(derivatives, at::zeros({}, derivatives.options()));
  }
  at::Tensor evaluate_at(const at::Tensor& derivatives, const at::Tensor& t) const override {
    return at::cos(omega_ * t) * derivatives[0];
  }
  std::string describe() const override { return "cos(omega t)*u"; }

 private:
  double omega_;
};

/// KdV (delta = 1) on [-half_length, half_length) with 512 modes from exact(x, 0), solved
/// adaptively to `tolerance`: max error against exact(x, t) over the outputs, the solution
/// in `solution`.
double adaptive_kdv_error(const std::function<at::Tensor(const at::Tensor&, double)>& exact,
                          double half_length, double t_end, double tolerance,
                          Solution* solution = nullptr) {
  const PeriodicGrid grid(-half_length, half_length, 512);
  SolveOptions options = solve_options(t_end, 0.5, 2.5e-3);
  options.tolerance = tolerance;
  const Solution s = solve_periodic(grid, equation_named("kdv"), exact(grid.x(), 0.0), options);
  double error = 0;
  for (int64_t i = 0; i < s.t.size(0); ++i)
    error = std::max(error, max_abs(s.u[0][i] - exact(grid.x(), s.t[i].item<double>())));
  if (solution != nullptr) *solution = s;
  return error;
}

/// The soliton of speed 3 (amplitude 9) from x = -5, crossing the domain 1.5 times by t = 20.
at::Tensor fast_soliton(const at::Tensor& x, double t) {
  return kdv_soliton(x, t, 3.0, -5.0, 40.0);
}

/// Solitons of speeds 3 and 2 (k = sqrt 3, sqrt 2) that collide near t = 6, seen from a frame
/// moving at 2.5 (u(x + 2.5 t, t) - 2.5 solves KdV too: Galilean invariance), so that both
/// stay within [-7, 6]. On [-30, 30) their tails at the ends stay below 1e-10 (the slow
/// one's right tail is 1 / A = 98 times its left one, A the phase factor).
at::Tensor colliding_solitons(const at::Tensor& x, double t) {
  return kdv_two_soliton(x + 2.5 * t, t, std::sqrt(3.0), -3.0, std::sqrt(2.0), 3.0) - 2.5;
}

}  // namespace

TEST(PeriodicSolve, heat_equation_is_exact) {
  // u0 = sin x + 0.5 cos 3x on [-pi, pi): u = e^{-nu t} sin x + 0.5 e^{-9 nu t} cos 3x.
  const double nu = 0.3;
  const PeriodicGrid grid(-M_PI, M_PI, 32);
  const at::Tensor x = grid.x();
  const Solution s = solve_periodic(grid, equation_named("heat", nu),
                                    at::sin(x) + 0.5 * at::cos(3 * x), solve_options(2, 0.25, 0.1));
  ASSERT_EQ(s.u.sizes(), (at::IntArrayRef{1, 9, 32}));
  for (int64_t i = 0; i < s.t.size(0); ++i) {
    const double t = s.t[i].item<double>();
    const at::Tensor exact =
        std::exp(-nu * t) * at::sin(x) + 0.5 * std::exp(-9 * nu * t) * at::cos(3 * x);
    EXPECT_LT(max_abs(s.u[0][i] - exact), 1e-14) << "t = " << t;
  }
}

TEST(PeriodicSolve, kdv_soliton_over_forty_time_units) {
  const DatasetDefaults d = dataset_defaults("kdv");
  const PeriodicGrid grid(d.x_min, d.x_max, d.modes);
  const double c = 1.5, x0 = -5.0;
  const at::Tensor x = grid.x();
  const Solution s =
      solve_periodic(grid, equation_named("kdv"), kdv_soliton(x, 0, c, x0, grid.length()),
                     solve_options(d.t_end, d.output_dt * 10, d.dt));
  double error = 0;
  for (int64_t i = 0; i < s.t.size(0); ++i) {
    const at::Tensor exact = kdv_soliton(x, s.t[i].item<double>(), c, x0, grid.length());
    error = std::max(error, max_abs(s.u[0][i] - exact));
  }
  EXPECT_LT(error, 1e-7) << "amplitude " << 3 * c;
}

TEST(PeriodicSolve, burgers_matches_cole_hopf_for_gp_initial_conditions) {
  const DatasetDefaults d = dataset_defaults("burgers");
  const PeriodicGrid grid(d.x_min, d.x_max, d.modes);
  InitialConditionOptions ic;
  ic.gp = {d.ic_amplitude, d.ic_length_scale};
  at::Tensor u0 = make_initial_conditions(grid, ic, 3, 7, "cole-hopf");
  u0 = u0 - u0.mean(1, true);
  const Solution s =
      solve_periodic(grid, equation_named("burgers", 0.1), u0, solve_options(d.t_end, 0.5, d.dt));
  for (int64_t e = 0; e < 3; ++e) {
    const at::Tensor exact = burgers_cole_hopf(grid, u0[e], 0.1, s.t);
    EXPECT_LT(max_abs(s.u[e] - exact), 1e-6) << "experiment " << e;
  }
}

TEST(PeriodicSolve, cole_hopf_rejects_nonzero_mean) {
  const PeriodicGrid grid(-8, 8, 32);
  EXPECT_THROW(burgers_cole_hopf(grid, at::ones({32}, at::kDouble), 0.1, at::zeros({1})),
               std::invalid_argument);
}

TEST(PeriodicSolve, etdrk4_converges_at_fourth_order) {
  const PeriodicGrid grid(-8, 8, 128);
  const at::Tensor u0 = -at::sin(M_PI * grid.x() / 8.0);
  const Equation burgers = equation_named("burgers", 0.1);
  auto solve = [&](double dt) {
    return solve_periodic(grid, burgers, u0, solve_options(2.0, 2.0, dt)).u.select(1, 1);
  };
  const at::Tensor reference = solve(0.02 / 64);
  double previous = max_abs(solve(0.08) - reference);
  for (double dt : {0.04, 0.02}) {
    const double error = max_abs(solve(dt) - reference);
    const double order = std::log2(previous / error);
    EXPECT_GT(order, 3.7) << "dt = " << dt << " error " << error;
    EXPECT_LT(order, 4.5) << "dt = " << dt << " error " << error;
    previous = error;
  }
}

// The stepper evaluates N at its stage times t, t + dt/2, t + dt/2, t + dt: with N
// changing in time the error still falls at fourth order or faster (about 5 on this linear
// problem; one time for every stage would give first order), on fixed steps and on
// adaptive ones.
TEST(PeriodicSolve, etdrk4_is_fourth_order_for_a_term_that_changes_in_time) {
  const PeriodicGrid grid(-8, 8, 32);
  const double nu = 0.1, omega = 3.0, t_end = 2.0, k = M_PI / 8.0;
  const Equation forced{"forced heat", {0.0, 0.0, nu}, std::make_shared<ModulatedGrowth>(omega)};
  const at::Tensor u0 = at::sin(k * grid.x());
  const at::Tensor exact = std::exp(std::sin(omega * t_end) / omega - nu * k * k * t_end) * u0;
  auto error = [&](const SolveOptions& options) {
    return max_abs(solve_periodic(grid, forced, u0, options).u.select(-2, 1) - exact);
  };
  double previous = error(solve_options(t_end, t_end, 0.2));
  for (double dt : {0.1, 0.05}) {
    const double current = error(solve_options(t_end, t_end, dt));
    EXPECT_GT(std::log2(previous / current), 3.7) << "dt = " << dt << " error " << current;
    previous = current;
  }
  SolveOptions adaptive = solve_options(t_end, t_end, 0.1);
  adaptive.tolerance = 1e-10;
  EXPECT_LT(error(adaptive), 1e-8);
}

TEST(PeriodicSolve, adaptive_steps_solve_kdv_solitons_to_1e_8) {
  // Speed 3: over [0, 40] a fixed step of 2.5e-3 (the KdV default) is 2.5e-5 off, and this
  // tolerance 8.6e-9 (docs/solver.md, "Adaptive time steps"); [0, 20] keeps the test short.
  Solution s;
  EXPECT_LT(adaptive_kdv_error(fast_soliton, 20.0, 20.0, 1e-10, &s), 1e-8);
  EXPECT_GT(s.steps, 0);
  EXPECT_NEAR(s.dt, 20.0 / static_cast<double>(s.steps), 1e-15);
  EXPECT_LT(adaptive_kdv_error(colliding_solitons, 30.0, 12.0, 1e-9), 1e-8);
}

TEST(PeriodicSolve, adaptive_error_falls_with_the_tolerance_over_three_decades) {
  // Step doubling with local extrapolation: each kept step is fifth order, its local error
  // about h^6 where the estimate is about h^5 = tolerance, so over a horizon the error
  // scales like N h^6 ~ tolerance (h ~ tolerance^(1/5), N ~ 1 / h).
  std::vector<double> errors;
  for (double tolerance : {1e-6, 1e-7, 1e-8, 1e-9})
    errors.push_back(adaptive_kdv_error(colliding_solitons, 30.0, 12.0, tolerance));
  for (std::size_t i = 1; i < errors.size(); ++i)
    EXPECT_LT(errors[i], 0.3 * errors[i - 1]) << "tolerance decade " << i;
  const double slope = std::log10(errors.front() / errors.back()) / 3.0;
  EXPECT_GT(slope, 0.7) << errors.front() << " -> " << errors.back();
  EXPECT_LT(slope, 1.3) << errors.front() << " -> " << errors.back();
}

TEST(PeriodicSolve, adaptive_steps_land_on_the_output_times) {
  const PeriodicGrid grid(-8, 8, 64);
  SolveOptions options = solve_options(1.0, 0.1, 0.5);  // a first step far too long
  options.tolerance = 1e-12;
  const Solution s =
      solve_periodic(grid, equation_named("burgers"), 0.5 * at::sin(M_PI * grid.x() / 8), options);
  EXPECT_TRUE(at::equal(s.t, output_times(options)));
  EXPECT_GT(s.rejected_steps, 0);
  SolveOptions fixed = solve_options(1.0, 0.1, 1e-3);
  const at::Tensor reference =
      solve_periodic(grid, equation_named("burgers"), 0.5 * at::sin(M_PI * grid.x() / 8), fixed).u;
  EXPECT_LT(max_abs(s.u - reference), 1e-10);
  options.tolerance = -1.0;
  EXPECT_THROW(solve_periodic(grid, equation_named("burgers"), at::zeros({64}), options),
               std::invalid_argument);
}

TEST(PeriodicSolve, batch_members_are_solved_independently) {
  const PeriodicGrid grid(-8, 8, 64);
  const at::Tensor x = grid.x();
  const at::Tensor a = 0.5 * at::sin(M_PI * x / 8), b = 0.3 * at::cos(M_PI * x / 4);
  const SolveOptions options = solve_options(1, 0.5, 0.01);
  const Equation burgers = equation_named("burgers");
  const at::Tensor both = solve_periodic(grid, burgers, at::stack({a, b}), options).u;
  EXPECT_LT(max_abs(both[0] - solve_periodic(grid, burgers, a, options).u[0]), 1e-15);
  EXPECT_LT(max_abs(both[1] - solve_periodic(grid, burgers, b, options).u[0]), 1e-15);
}

TEST(PeriodicSolve, time_step_is_lowered_to_divide_the_output_interval) {
  const PeriodicGrid grid(-8, 8, 32);
  const Solution s = solve_periodic(grid, equation_named("heat"), at::sin(M_PI * grid.x() / 8),
                                    solve_options(1.0, 0.1, 0.03));
  EXPECT_NEAR(s.dt, 0.025, 1e-15);
  EXPECT_EQ(s.steps, 40);
  EXPECT_EQ(steps_per_output(0.1, 0.1), 1);
}

TEST(PeriodicSolve, backward_heat_blows_up_with_the_time_named) {
  EquationOptions options;
  options.name = "general";
  options.linear = {0.0, 0.0, -1.0};  // u_t = -u_xx: every mode grows like e^{k^2 t}
  const PeriodicGrid grid(-8, 8, 64);
  InitialConditionOptions ic;
  const at::Tensor u0 = make_initial_conditions(grid, ic, 1, 3, "blowup");
  try {
    solve_periodic(grid, make_equation(options), u0, solve_options(10, 0.1, 0.01));
    FAIL() << "expected SolverDivergence";
  } catch (const SolverDivergence& error) {
    EXPECT_THAT(error.what(), HasSubstr("blew up by t = "));
    EXPECT_GT(error.time_reached(), 0.0);
    EXPECT_LT(error.time_reached(), 10.0);
  }
}

TEST(PeriodicSolve, nan_from_the_nonlinear_term_is_caught) {
  EquationOptions options;
  options.name = "general";
  options.nonlinear = "sqrt(u)";  // NaN wherever u < 0
  const PeriodicGrid grid(-8, 8, 32);
  EXPECT_THAT(
      [&] {
        solve_periodic(grid, make_equation(options), at::sin(M_PI * grid.x() / 8),
                       solve_options(1, 0.5, 0.01));
      },
      ::testing::ThrowsMessage<SolverDivergence>(
          HasSubstr("u is NaN or infinite in batch member 0")));
}

TEST(PeriodicSolve, rejects_inconsistent_times_and_shapes) {
  const PeriodicGrid grid(-8, 8, 32);
  const Equation heat = equation_named("heat");
  const at::Tensor u0 = at::sin(M_PI * grid.x() / 8);
  EXPECT_THROW(solve_periodic(grid, heat, u0, solve_options(1.0, 0.3, 0.01)),
               std::invalid_argument);
  EXPECT_THROW(solve_periodic(grid, heat, u0, solve_options(1.0, 0.1, 0.0)), std::invalid_argument);
  EXPECT_THROW(solve_periodic(grid, heat, u0, solve_options(-1.0, 0.1, 0.01)),
               std::invalid_argument);
  EXPECT_THROW(
      solve_periodic(grid, heat, at::zeros({31}, at::kDouble), solve_options(1, 0.1, 0.01)),
      std::invalid_argument);
}

// u_t = u^2 has u = u0 / (1 - u0 t): the member starting at 2 blows up at t = 0.5, the one
// at 0.1 lives on. Dropping keeps the sound member exact and names when the other failed;
// without dropping the whole solve stops.
TEST(PeriodicSolve, drops_a_member_that_blows_up_and_keeps_the_others) {
  const Equation growth = quadratic_growth();
  const PeriodicGrid grid(0.0, 1.0, 8);
  const at::Tensor u0 =
      at::stack({at::full({8}, 0.1, at::kDouble), at::full({8}, 2.0, at::kDouble)});
  SolveOptions options = solve_options(2.0, 0.25, 1e-3);
  EXPECT_THROW(solve_periodic(grid, growth, u0, options), SolverDivergence);

  options.drop_diverged = true;
  const Solution solution = solve_periodic(grid, growth, u0, options);
  EXPECT_FALSE(solution.diverged[0].item<bool>());
  EXPECT_TRUE(solution.diverged[1].item<bool>());
  EXPECT_TRUE(solution.failures[0].empty());
  EXPECT_THAT(solution.failures[1], HasSubstr("blew up by t = 0.5"));
  const at::Tensor exact = 0.1 / (1.0 - 0.1 * solution.t);
  EXPECT_LT(max_abs(solution.u[0] - exact.unsqueeze(1)), 1e-10);
  EXPECT_TRUE(at::isfinite(solution.u[1][1]).all().item<bool>());  // t = 0.25: still sound
  EXPECT_TRUE(at::isnan(solution.u[1].slice(0, 2)).all().item<bool>());

  // Adaptive steps: the blowing-up member's own step shrinks until it collapses or the
  // member passes the limit; either way it alone is dropped and the other stays exact.
  options.tolerance = 1e-10;
  const Solution adaptive = solve_periodic(grid, growth, u0, options);
  EXPECT_FALSE(adaptive.diverged[0].item<bool>());
  EXPECT_TRUE(adaptive.diverged[1].item<bool>());
  EXPECT_THAT(adaptive.failures[1], HasSubstr("blew up by t = 0.5"));
  EXPECT_LT(max_abs(adaptive.u[0] - exact.unsqueeze(1)), 1e-9);
}

// Steps per member: in u_t = u^2 the member from 2 needs ever smaller steps towards its
// blow-up at t = 0.5, the one from 0.1 does not. Solved together, the sound member takes
// exactly the steps it takes alone and ends where it ends alone.
TEST(PeriodicSolve, a_member_that_needs_small_steps_does_not_make_the_others_take_them) {
  const Equation growth = quadratic_growth();
  const PeriodicGrid grid(0.0, 1.0, 8);
  const at::Tensor sound = at::full({8}, 0.1, at::kDouble);
  const SolveOptions options = dropping_adaptive_options();
  const Solution alone = solve_periodic(grid, growth, sound, options);
  const Solution together =
      solve_periodic(grid, growth, at::stack({sound, at::full({8}, 2.0, at::kDouble)}), options);
  ASSERT_EQ(together.member_steps.size(), 2u);
  EXPECT_TRUE(together.diverged[1].item<bool>());
  EXPECT_EQ(together.member_steps[0], alone.member_steps[0]);
  EXPECT_GT(together.member_steps[1], 2 * together.member_steps[0]);
  EXPECT_EQ(together.steps, together.member_steps[1]);
  EXPECT_LT(max_abs(together.u[0] - alone.u[0]), 1e-15);
}

// A bound on the steps a member may try within an output interval bounds its cost: in
// u_t = u^2 the member from 2 reaches it on its way to the blow-up at t = 0.5 and is dropped
// there, before its step collapses, and the sound member is solved as alone. Without drop
// mode the bound ends the solve.
TEST(PeriodicSolve, a_member_over_the_step_bound_of_an_interval_is_dropped_alone) {
  const Equation growth = quadratic_growth();
  const PeriodicGrid grid(0.0, 1.0, 8);
  const at::Tensor sound = at::full({8}, 0.1, at::kDouble);
  const at::Tensor both = at::stack({sound, at::full({8}, 2.0, at::kDouble)});
  SolveOptions options = dropping_adaptive_options();
  options.max_interval_steps = 12;
  const Solution alone = solve_periodic(grid, growth, sound, options);
  const Solution bounded = solve_periodic(grid, growth, both, options);
  EXPECT_TRUE(bounded.diverged[1].item<bool>());
  EXPECT_THAT(bounded.failures[1], HasSubstr("12 adaptive steps tried within one output interval"));
  EXPECT_LE(bounded.member_steps[1], 12 * 2);  // dropped within the first two intervals
  EXPECT_EQ(bounded.member_steps[0], alone.member_steps[0]);
  EXPECT_LT(max_abs(bounded.u[0] - alone.u[0]), 1e-15);
  options.max_interval_steps = 0;  // the same member without the bound: far more steps
  EXPECT_GT(solve_periodic(grid, growth, both, options).member_steps[1], 12 * 2);

  options.max_interval_steps = 12;
  options.drop_diverged = false;
  EXPECT_THROW(solve_periodic(grid, growth, both, options), SolverDivergence);
  options.max_interval_steps = -1;
  EXPECT_THROW(solve_periodic(grid, growth, both, options), std::invalid_argument);
}

// Per-member stage times: N = cos(omega t) u solved adaptively matches
// u_k(t) = u_k(0) exp(sin(omega t) / omega - nu k^2 t) for members whose steps differ
// (amplitudes do not change a linear problem's relative error, so the members start at
// different first steps by their initial conditions' content: a smooth and a rough one).
TEST(PeriodicSolve, adaptive_steps_per_member_evaluate_a_time_dependent_term_at_their_own_times) {
  const double nu = 0.01, omega = 3.0;
  const PeriodicGrid grid(-M_PI, M_PI, 32);
  Equation equation = equation_named("heat", nu);
  equation.nonlinear = std::make_shared<ModulatedGrowth>(omega);
  const at::Tensor x = grid.x();
  const at::Tensor u0 = at::stack({at::sin(x), at::sin(x) + 0.5 * at::cos(12 * x)});
  SolveOptions options = solve_options(2.0, 0.5, 0.5);
  options.tolerance = 1e-9;
  const Solution s = solve_periodic(grid, equation, u0, options);
  EXPECT_NE(s.member_steps[0], s.member_steps[1]);
  for (std::int64_t i = 0; i < s.t.size(0); ++i) {
    const double t = s.t[i].item<double>();
    const double growth = std::sin(omega * t) / omega;
    const at::Tensor exact =
        at::stack({std::exp(growth - nu * t) * at::sin(x),
                   std::exp(growth - nu * t) * at::sin(x) +
                       0.5 * std::exp(growth - 144 * nu * t) * at::cos(12 * x)});
    EXPECT_LT(max_abs(s.u.select(1, i) - exact), 1e-8) << "t = " << t;
  }
}

// The two engines of solve_periodic, plain arrays (pde/plain_periodic_solve.h) and batched
// tensors, take the same steps and agree to rounding: each dealiasing, fixed and adaptive
// steps, the advection term, an expression, no nonlinear term, and members dropped beside a
// sound one (by the limit with fixed steps, by the step bound with adaptive ones).
TEST(PeriodicSolve, plain_arrays_and_batched_tensors_agree_to_rounding) {
  const PeriodicGrid grid(-8, 8, 64);
  const at::Tensor x = grid.x();
  const at::Tensor u0 =
      at::stack({0.5 * at::sin(M_PI * x / 8), 0.3 * at::cos(M_PI * x / 4) + 0.2 * at::sin(x)});
  EquationOptions expression;
  expression.name = "general";
  expression.linear = {0.0, 0.0, 0.05};
  expression.nonlinear = "-u*u_x + 0.02*u*u_xx";
  struct Case {
    Equation equation;
    std::string dealias;
    double tolerance;
  };
  const std::vector<Case> cases{{equation_named("burgers"), "pad", 0.0},
                                {equation_named("burgers"), "truncate", 1e-8},
                                {equation_named("kdv"), "pad", 1e-7},
                                {equation_named("heat"), "pad", 0.0},
                                {make_equation(expression), "none", 1e-9}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.equation.describe() + ", " + c.dealias);
    SolveOptions options = solve_options(2.0, 0.25, 0.01);
    options.stepper.dealias = c.dealias;
    options.tolerance = c.tolerance;
    ASSERT_TRUE(solves_on_plain_arrays(grid, c.equation));
    const Solution plain = solve_periodic_plain(grid, c.equation, u0, options);
    const Solution batched = solve_periodic_batched(grid, c.equation, u0, options);
    EXPECT_LT(max_abs(plain.u - batched.u), 1e-12);
    EXPECT_EQ(plain.steps, batched.steps);
    EXPECT_EQ(plain.rejected_steps, batched.rejected_steps);
    EXPECT_EQ(plain.member_steps, batched.member_steps);
    EXPECT_DOUBLE_EQ(plain.dt, batched.dt);
  }

  const Equation growth = quadratic_growth();
  const PeriodicGrid small(0.0, 1.0, 8);
  const at::Tensor both =
      at::stack({at::full({8}, 0.1, at::kDouble), at::full({8}, 2.0, at::kDouble)});
  SolveOptions fixed = solve_options(2.0, 0.25, 1e-3);
  fixed.drop_diverged = true;
  SolveOptions bounded = dropping_adaptive_options();
  bounded.max_interval_steps = 12;
  for (const SolveOptions& options : {fixed, bounded}) {
    const Solution plain = solve_periodic_plain(small, growth, both, options);
    const Solution batched = solve_periodic_batched(small, growth, both, options);
    EXPECT_TRUE(at::equal(plain.diverged, batched.diverged));
    EXPECT_EQ(plain.failures, batched.failures);
    EXPECT_EQ(plain.member_steps, batched.member_steps);
    EXPECT_TRUE(at::equal(at::isnan(plain.u), at::isnan(batched.u)));
    EXPECT_LT(max_abs(plain.u[0] - batched.u[0]), 1e-14);
  }

  // Sampled operators and CUDA grids take the batched engine.
  Equation tensors_only = equation_named("heat", 0.01);
  tensors_only.nonlinear = std::make_shared<ModulatedGrowth>(1.0);
  EXPECT_FALSE(solves_on_plain_arrays(grid, tensors_only));
  EXPECT_THROW(solve_periodic_plain(grid, tensors_only, u0, solve_options(1, 0.5, 0.1)),
               std::invalid_argument);
}

// Members are handed out one at a time over the intra-op threads: each runs exactly once,
// both of two threads take some, and the first exception comes back after every member ran.
TEST(ForEachMember, runs_every_member_once_and_rethrows_the_first_error) {
  const int previous = at::get_num_threads();
  at::set_num_threads(2);
  std::vector<std::atomic<int>> runs(50);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for_each_member(50, [&](std::int64_t b) {
    ++runs[static_cast<std::size_t>(b)];
    {
      const std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
  EXPECT_EQ(threads.size(), 2u);
  std::atomic<int> ran{0};
  EXPECT_THROW(for_each_member(20,
                               [&](std::int64_t b) {
                                 ++ran;
                                 if (b == 7) throw std::runtime_error("member 7");
                               }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 20);
  at::set_num_threads(previous);
}
