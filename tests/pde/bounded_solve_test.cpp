// The bounded-domain solver against exact solutions: heat with Dirichlet, Neumann and Robin
// conditions that change in time, a viscous Burgers shock, a KdV soliton with its three
// conditions, advection with inflow, u_t = -u_xxxx with two conditions at each end; spectral
// convergence in n; the count of conditions by order and sign and the messages that refuse
// a wrong count; members with their own operators and a member that blows up.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pde/boundary_conditions.h"
#include "pde/bounded_solve.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/exact_solutions.h"
#include "pde/nonlinear_term.h"
#include "support/tensors.h"

using namespace bhpm::pde;
using bhpm::testing_support::max_abs;
using testing::HasSubstr;

namespace {

/// u(x, t) with its derivatives in x: exact(order, x, t).
using ExactSolution = std::function<double(int order, double x, double t)>;

Equation known_equation(const std::string& name, double nu = 0.1) {
  EquationOptions options;
  options.name = name;
  options.nu = nu;
  return make_equation(options);
}

Equation constant_coefficient_equation(std::vector<double> coefficients) {
  EquationOptions options;
  options.name = "general";
  options.linear = std::move(coefficients);
  return make_equation(options);
}

/// d^order u = exact's d^order u at x_end.
BoundaryCondition exact_condition(const ExactSolution& exact, int order, double x_end) {
  return BoundaryCondition::derivative(
      order, [exact, order, x_end](double t) { return exact(order, x_end, t); }, "exact");
}

at::Tensor exact_field(const ExactSolution& exact, const at::Tensor& x, double t) {
  at::Tensor u = at::empty_like(x);
  for (std::int64_t j = 0; j < x.size(0); ++j) u[j] = exact(0, x[j].item<double>(), t);
  return u;
}

BoundedSolveOptions bounded_options(double t_end, double output_dt, double tolerance = 1e-10) {
  BoundedSolveOptions o;
  o.t_end = t_end;
  o.output_dt = output_dt;
  o.relative_tolerance = tolerance;
  o.absolute_tolerance = tolerance;
  return o;
}

/// max over output times and points of |u - exact|.
double max_error_against(const ChebyshevGrid& grid, const Equation& equation,
                         const BoundaryConditions& conditions, const ExactSolution& exact,
                         const BoundedSolveOptions& o) {
  const Solution solution =
      solve_bounded(grid, equation, conditions, exact_field(exact, grid.x(), 0.0), o);
  double error = 0.0;
  for (std::int64_t k = 0; k < solution.t.size(0); ++k)
    error = std::max(error, max_abs(solution.u[0][k] -
                                    exact_field(exact, grid.x(), solution.t[k].item<double>())));
  return error;
}

/// u = exp(-nu k^2 t) sin(k x + phase), a solution of u_t = nu u_xx.
ExactSolution heat_mode(double nu, double k, double phase) {
  return [=](int order, double x, double t) {
    return std::exp(-nu * k * k * t) * std::pow(k, order) *
           std::sin(k * x + phase + order * M_PI / 2);
  };
}

}  // namespace

TEST(BoundaryConditions, count_follows_the_order_and_the_sign_of_the_leading_term) {
  auto count = [](int order, double left, double right) {
    const ConditionCount c = required_conditions(order, left, right);
    return std::to_string(c.left) + "+" + std::to_string(c.right);
  };
  EXPECT_EQ(count(0, 0.0, 0.0), "0+0");
  EXPECT_EQ(count(2, 0.1, 0.1), "1+1");    // diffusion
  EXPECT_EQ(count(4, -1.0, -1.0), "2+2");  // u_t = -u_xxxx
  EXPECT_EQ(count(3, -1.0, -1.0), "1+2");  // KdV u_t = -u_xxx
  EXPECT_EQ(count(3, 1.0, 1.0), "2+1");    // its mirror image
  EXPECT_EQ(count(1, -1.0, -1.0), "1+0");  // u_t = -u_x: inflow at the left
  EXPECT_EQ(count(1, 1.0, 1.0), "0+1");    // u_t = u_x: inflow at the right
  EXPECT_EQ(count(1, 1.0, -1.0), "0+0");   // outflow at both ends
  EXPECT_THAT([&] { count(2, -0.1, 0.1); },
              testing::ThrowsMessage<std::invalid_argument>(HasSubstr("backward diffusion")));
  EXPECT_THROW(count(4, 1.0, 1.0), std::invalid_argument);
  EXPECT_EQ(BoundaryCondition::robin(
                2.0, 1.0, [](double) { return 1.0; }, "1")
                .describe(),
            "2 u + u_x = 1");
}

TEST(BoundedSolve, heat_with_dirichlet_neumann_and_robin_conditions_that_change_in_time) {
  const double nu = 0.1, a = 0.0, b = 2.0;
  const ExactSolution exact = heat_mode(nu, 2.5, 0.3);
  const ChebyshevGrid grid(a, b, 24);
  const Equation heat = known_equation("heat", nu);
  BoundaryConditions dirichlet{{exact_condition(exact, 0, a)}, {exact_condition(exact, 0, b)}};
  EXPECT_LT(max_error_against(grid, heat, dirichlet, exact, bounded_options(1.0, 0.25)), 1e-8);
  // Neumann at the left, Robin 2 u + u_x = g at the right.
  BoundaryConditions mixed{
      {exact_condition(exact, 1, a)},
      {BoundaryCondition::robin(
          2.0, 1.0, [=](double t) { return 2.0 * exact(0, b, t) + exact(1, b, t); }, "exact")}};
  EXPECT_LT(max_error_against(grid, heat, mixed, exact, bounded_options(1.0, 0.25)), 1e-8);
}

TEST(BoundedSolve, viscous_burgers_shock_converges_spectrally_in_the_points) {
  const double nu = 0.1;
  const ExactSolution exact = [=](int order, double x, double t) {
    return viscous_burgers_front(x, t, nu, 0.5, 0.2, order);
  };
  const Equation burgers = known_equation("burgers", nu);
  std::vector<double> errors;
  for (std::int64_t n : {24, 48}) {
    const ChebyshevGrid grid(-2.0, 2.0, n);
    BoundaryConditions conditions{{exact_condition(exact, 0, -2.0)},
                                  {exact_condition(exact, 0, 2.0)}};
    errors.push_back(
        max_error_against(grid, burgers, conditions, exact, bounded_options(2.0, 0.5)));
  }
  EXPECT_LT(errors[1], 1e-6);
  EXPECT_LT(errors[1], 1e-2 * errors[0]);
}

TEST(BoundedSolve, kdv_soliton_with_one_condition_at_the_left_and_two_at_the_right) {
  const ExactSolution exact = [](int order, double x, double t) {
    return kdv_soliton_on_line(x, t, 1.0, -4.0, order);
  };
  const double a = -15.0, b = 15.0;
  const ChebyshevGrid grid(a, b, 96);
  const Equation kdv = known_equation("kdv");
  BoundaryConditions conditions{{exact_condition(exact, 0, a)},
                                {exact_condition(exact, 0, b), exact_condition(exact, 1, b)}};
  EXPECT_LT(max_error_against(grid, kdv, conditions, exact, bounded_options(4.0, 1.0, 1e-9)), 1e-5);

  // Two conditions at the left and one at the right: refused, naming the end and the count.
  BoundaryConditions mirrored{{exact_condition(exact, 0, a), exact_condition(exact, 1, a)},
                              {exact_condition(exact, 0, b)}};
  EXPECT_THAT(
      [&] {
        solve_bounded(grid, kdv, mirrored, exact_field(exact, grid.x(), 0.0),
                      bounded_options(1.0, 1.0));
      },
      testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("needs 1 condition at the left end")));
}

TEST(BoundedSolve,
     advection_takes_its_inflow_from_the_left_and_refuses_a_condition_at_the_outflow) {
  const ExactSolution exact = [](int order, double x, double t) {
    return order == 0 ? std::sin(2.0 * (x - t)) : 2.0 * std::cos(2.0 * (x - t));
  };
  const ChebyshevGrid grid(0.0, 3.0, 40);
  const Equation advection = constant_coefficient_equation({0.0, -1.0});
  BoundaryConditions inflow{{exact_condition(exact, 0, 0.0)}, {}};
  EXPECT_LT(max_error_against(grid, advection, inflow, exact, bounded_options(2.0, 0.5)), 1e-7);
  BoundaryConditions both{{exact_condition(exact, 0, 0.0)}, {exact_condition(exact, 0, 3.0)}};
  // Inflow data that do not match the initial condition at t = 0: refused, naming the end.
  BoundaryConditions mismatched{{BoundaryCondition::dirichlet([](double) { return 0.5; }, "0.5")},
                                {}};
  EXPECT_THAT(
      [&] {
        solve_bounded(grid, advection, mismatched, exact_field(exact, grid.x(), 0.0),
                      bounded_options(1.0, 1.0));
      },
      testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("does not meet the left end's condition u = 0.5 at t = 0")));
  EXPECT_THAT(
      [&] {
        solve_bounded(grid, advection, both, exact_field(exact, grid.x(), 0.0),
                      bounded_options(1.0, 1.0));
      },
      testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("needs 0 conditions at the right end")));
}

TEST(BoundedSolve, fourth_order_damping_with_two_conditions_at_each_end) {
  // u = exp(-k^4 t) sin(k x) solves u_t = -u_xxxx.
  const double k = 1.5;
  const ExactSolution exact = [=](int order, double x, double t) {
    return std::exp(-std::pow(k, 4) * t) * std::pow(k, order) * std::sin(k * x + order * M_PI / 2);
  };
  const ChebyshevGrid grid(0.0, 4.0, 28);
  BoundaryConditions conditions{{exact_condition(exact, 0, 0.0), exact_condition(exact, 1, 0.0)},
                                {exact_condition(exact, 0, 4.0), exact_condition(exact, 1, 4.0)}};
  EXPECT_LT(max_error_against(grid, constant_coefficient_equation({0.0, 0.0, 0.0, 0.0, -1.0}),
                              conditions, exact, bounded_options(0.5, 0.25)),
            1e-8);
}

namespace {

/// N = -c_b u u_x with a coefficient c_b of its own per member, as operator samples are.
class MemberAdvection final : public NonlinearTerm {
 public:
  explicit MemberAdvection(at::Tensor coefficients) : coefficients_(std::move(coefficients)) {}
  int max_derivative() const override { return 1; }
  at::Tensor evaluate(const at::Tensor& d) const override {
    return -coefficients_.unsqueeze(1) * d[0] * d[1];
  }
  std::shared_ptr<const NonlinearTerm> select_members(const at::Tensor& members) const override {
    return std::make_shared<MemberAdvection>(coefficients_.index_select(0, members));
  }
  std::string describe() const override { return "-c u*u_x"; }

 private:
  at::Tensor coefficients_;
};

}  // namespace

TEST(BoundedSolve, each_member_solves_its_own_operator_and_a_member_that_blows_up_is_dropped) {
  const ChebyshevGrid grid(0.0, 1.0, 16);
  const at::Tensor x = grid.x();
  auto zero = [](double) { return 0.0; };
  BoundaryConditions walls{{BoundaryCondition::dirichlet(zero, "0")},
                           {BoundaryCondition::dirichlet(zero, "0")}};
  Equation pair = constant_coefficient_equation({0.0, 0.0, 0.05});
  pair.nonlinear = std::make_shared<MemberAdvection>(at::tensor({0.5, 2.0}, at::kDouble));
  const at::Tensor u0 = at::sin(M_PI * x).repeat({2, 1});
  const Solution both = solve_bounded(grid, pair, walls, u0, bounded_options(0.5, 0.25, 1e-9));
  for (std::int64_t b = 0; b < 2; ++b) {
    Equation alone = pair;
    alone.nonlinear =
        std::make_shared<MemberAdvection>(at::tensor({b == 0 ? 0.5 : 2.0}, at::kDouble));
    const Solution single =
        solve_bounded(grid, alone, walls, u0[b], bounded_options(0.5, 0.25, 1e-9));
    EXPECT_LT(max_abs(both.u[b] - single.u[0]), 1e-12) << "member " << b;
  }
  EXPECT_GT(max_abs(both.u[0][2] - both.u[1][2]), 1e-3);

  // u_t = 0.05 u_xx + u^2 from 40 sin(pi x) blows up; from 0.1 sin(pi x) it decays.
  EquationOptions blowup_options;
  blowup_options.name = "general";
  blowup_options.linear = {0.0, 0.0, 0.05};
  blowup_options.nonlinear = "u^2";
  const Equation blowup = make_equation(blowup_options);
  const at::Tensor starts = at::stack({40.0 * at::sin(M_PI * x), 0.1 * at::sin(M_PI * x)});
  BoundedSolveOptions drop = bounded_options(1.0, 0.25, 1e-8);
  drop.drop_diverged = true;
  const Solution dropped = solve_bounded(grid, blowup, walls, starts, drop);
  EXPECT_TRUE(dropped.diverged[0].item<bool>());
  EXPECT_FALSE(dropped.diverged[1].item<bool>());
  EXPECT_THAT(dropped.failures[0], HasSubstr("member 0"));
  EXPECT_TRUE(at::isfinite(dropped.u[1]).all().item<bool>());
  EXPECT_THROW(solve_bounded(grid, blowup, walls, starts, bounded_options(1.0, 0.25, 1e-8)),
               SolverDivergence);
}

TEST(BoundedSolve, pointwise_partials_are_the_derivatives_of_the_operator) {
  const Equation burgers = known_equation("burgers", 0.1);
  const at::Tensor v =
      at::stack({at::tensor({0.3, -1.2}, at::kDouble), at::tensor({2.0, 0.5}, at::kDouble),
                 at::tensor({-0.7, 4.0}, at::kDouble)})
          .unsqueeze(1);
  const at::Tensor partials = pointwise_partials(burgers, v, at::Tensor());
  // F = -u u_x + 0.1 u_xx: dF/du = -u_x, dF/du_x = -u, dF/du_xx = 0.1.
  EXPECT_LT(max_abs(partials[0] + v[1][0]), 1e-9);
  EXPECT_LT(max_abs(partials[1] + v[0][0]), 1e-9);
  EXPECT_LT(max_abs(partials[2] - 0.1), 1e-9);
}
