// Held-out operator data on hand-built solution grids whose derivatives and true u_t are
// known in closed form: heat, Burgers, KdV and a general equation; shapes, experiment
// indices, the strided subset and the errors; a bounded set differentiated on its
// Chebyshev points.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "eval/held_out_operator_data.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/periodic_grid.h"
#include "support/error_message.h"
#include "support/tensors.h"

using bhpm::eval::held_out_operator_data;
using bhpm::eval::OperatorTestData;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;
constexpr double kLength = 16.0;
const double kWave = 2.0 * M_PI / kLength;  // k

/// Amplitudes a[e, t] [2, 3] of the hand-made grids u[e, t, x] = a[e, t] g(x).
at::Tensor amplitudes() {
  return at::tensor({1.0, 0.5, -0.8, 1.5, -0.2, 0.9}, kReal).reshape({2, 3, 1});
}

/// g(x) = sin(k x) + c cos(2 k x) and its m-th derivative.
at::Tensor profile(const at::Tensor& x, double c, int m) {
  return std::pow(kWave, m) * at::sin(kWave * x + m * M_PI / 2) +
         c * std::pow(2.0 * kWave, m) * at::cos(2.0 * kWave * x + m * M_PI / 2);
}

/// A set of 2 experiments x 3 times on 64 points of [-8, 8) with u = a[e, t] g(x).
bhpm::pde::ExperimentSet hand_made_set(double c) {
  const bhpm::pde::PeriodicGrid grid(-8.0, 8.0, 64);
  bhpm::pde::ExperimentSet set;
  set.name = "test";
  set.x = grid.x();
  set.t = at::tensor({0.0, 0.5, 1.0}, kReal);
  set.u = amplitudes() * profile(set.x, c, 0);
  return set;
}

/// d^m u/dx^m at every row of the full data, [P] in (experiment, time, x) order.
at::Tensor exact(double c, int m) {
  const bhpm::pde::PeriodicGrid grid(-8.0, 8.0, 64);
  return (amplitudes() * profile(grid.x(), c, m)).reshape({-1});
}

bhpm::pde::Equation equation(const std::string& name) {
  bhpm::pde::EquationOptions options;
  options.name = name;
  options.nu = 0.1;
  return bhpm::pde::make_equation(options);
}

double max_error(const at::Tensor& a, const at::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

}  // namespace

TEST(HeldOutOperatorData, heat_inputs_are_exact_derivatives_and_target_is_nu_u_xx) {
  const OperatorTestData data = held_out_operator_data(hand_made_set(0.0), equation("heat"), 2);
  ASSERT_EQ(data.inputs.sizes(), (at::IntArrayRef{2 * 3 * 64, 3}));
  ASSERT_EQ(data.target.sizes(), (at::IntArrayRef{384}));
  for (int m = 0; m <= 2; ++m)
    EXPECT_LT(max_error(data.inputs.select(1, m), exact(0.0, m)), 1e-12) << "order " << m;
  // u_t = nu u_xx = -nu k^2 a sin(k x).
  const at::Tensor u = exact(0.0, 0);
  EXPECT_LT(max_error(data.target, -0.1 * kWave * kWave * u), 1e-12);
}

TEST(HeldOutOperatorData, rows_carry_their_experiment_time_and_grid_point) {
  const bhpm::pde::ExperimentSet set = hand_made_set(0.0);
  const OperatorTestData data = held_out_operator_data(set, equation("heat"), 0);
  ASSERT_EQ(data.inputs.sizes(), (at::IntArrayRef{384, 1}));
  ASSERT_EQ(data.experiment.scalar_type(), at::kLong);
  for (const std::int64_t row : {0, 63, 64, 191, 192, 300, 383}) {
    const std::int64_t e = row / 192, t = (row / 64) % 3, j = row % 64;
    EXPECT_EQ(data.experiment[row].item<std::int64_t>(), e) << row;
    EXPECT_EQ(data.t[row].item<double>(), set.t[t].item<double>()) << row;
    EXPECT_EQ(data.x[row].item<double>(), set.x[j].item<double>()) << row;
    EXPECT_EQ(data.inputs[row][0].item<double>(), set.u[e][t][j].item<double>()) << row;
  }
}

TEST(HeldOutOperatorData, burgers_target_is_minus_u_u_x_plus_nu_u_xx) {
  const double c = 0.3;
  const OperatorTestData data = held_out_operator_data(hand_made_set(c), equation("burgers"), 2);
  const at::Tensor u = exact(c, 0), u_x = exact(c, 1), u_xx = exact(c, 2);
  EXPECT_LT(max_error(data.target, -u * u_x + 0.1 * u_xx), 1e-10);
  EXPECT_LT(max_error(data.inputs.select(1, 1), u_x), 1e-12);
}

TEST(HeldOutOperatorData, kdv_target_reads_u_xxx_even_when_the_inputs_stop_below_it) {
  const double c = 0.3;
  const at::Tensor u = exact(c, 0), u_x = exact(c, 1), u_xxx = exact(c, 3);
  const at::Tensor expected = -u * u_x - u_xxx;  // delta = 1
  const OperatorTestData third = held_out_operator_data(hand_made_set(c), equation("kdv"), 3);
  ASSERT_EQ(third.inputs.size(1), 4);
  EXPECT_LT(max_error(third.inputs.select(1, 3), u_xxx), 1e-12);
  EXPECT_LT(max_error(third.target, expected), 1e-10);
  const OperatorTestData first = held_out_operator_data(hand_made_set(c), equation("kdv"), 1);
  ASSERT_EQ(first.inputs.size(1), 2);
  EXPECT_LT(max_error(first.target, expected), 1e-10);
}

TEST(HeldOutOperatorData, general_equation_adds_its_expression_to_the_linear_part) {
  bhpm::pde::EquationOptions options;
  options.name = "general";
  options.linear = {0.0, 0.0, 0.05};
  options.nonlinear = "-u*u_x + 0.1*u*(1 - u^2)";
  const double c = 0.3;
  const OperatorTestData data =
      held_out_operator_data(hand_made_set(c), bhpm::pde::make_equation(options), 4);
  const at::Tensor u = exact(c, 0), u_x = exact(c, 1), u_xx = exact(c, 2);
  EXPECT_LT(max_error(data.target, 0.05 * u_xx - u * u_x + 0.1 * u * (1.0 - u * u)), 1e-10);
  EXPECT_LT(max_error(data.inputs.select(1, 4), exact(c, 4)), 1e-11);
}

TEST(HeldOutOperatorData, max_points_keeps_an_evenly_strided_subset_of_the_rows) {
  const bhpm::pde::ExperimentSet set = hand_made_set(0.3);
  const OperatorTestData all = held_out_operator_data(set, equation("burgers"), 2);
  EXPECT_EQ(held_out_operator_data(set, equation("burgers"), 2, 384).target.size(0), 384);
  EXPECT_EQ(held_out_operator_data(set, equation("burgers"), 2, 1000).target.size(0), 384);

  // 384 rows, 100 kept: stride ceil(3.84) = 4 shares a factor with 384, 5 does not.
  const OperatorTestData some = held_out_operator_data(set, equation("burgers"), 2, 100);
  std::set<std::int64_t> expected;
  for (std::int64_t i = 0; i < 100; ++i) expected.insert(i * 5 % 384);
  ASSERT_EQ(expected.size(), 100u);
  const at::Tensor rows = at::tensor(std::vector<std::int64_t>(expected.begin(), expected.end()));
  EXPECT_TRUE(at::equal(some.inputs, all.inputs.index_select(0, rows)));
  EXPECT_TRUE(at::equal(some.target, all.target.index_select(0, rows)));
  EXPECT_TRUE(at::equal(some.experiment, all.experiment.index_select(0, rows)));
  EXPECT_TRUE(at::equal(some.x, all.x.index_select(0, rows)));
  EXPECT_TRUE(at::equal(some.t, all.t.index_select(0, rows)));

  // 6 = E T rows: the plain stride 64 = n would keep x_0 six times; 65 keeps 6 points.
  const OperatorTestData six = held_out_operator_data(set, equation("burgers"), 2, 6);
  EXPECT_EQ(std::get<0>(at::_unique(six.x)).size(0), 6);
  EXPECT_EQ(std::get<0>(at::_unique(six.experiment)).size(0), 2);
}

TEST(HeldOutOperatorData, bad_input_names_the_set_and_the_rule) {
  const bhpm::pde::ExperimentSet set = hand_made_set(0.0);
  const auto heat = equation("heat");
  EXPECT_THAT(error_message([&] { held_out_operator_data(set, heat, 7); }),
              AllOf(HasSubstr("'test'"), HasSubstr("order must be in [0, 6] (got 7)")));
  EXPECT_THAT(error_message([&] { held_out_operator_data(set, heat, -1); }), HasSubstr("got -1"));
  EXPECT_THAT(error_message([&] { held_out_operator_data(set, heat, 2, -5); }),
              HasSubstr("max_points must be >= 0 (got -5)"));

  bhpm::pde::ExperimentSet nan = set;
  nan.u = set.u.clone();
  nan.u[1][2][5] = NAN;
  EXPECT_THAT(error_message([&] { held_out_operator_data(nan, heat, 2); }),
              AllOf(HasSubstr("experiment 1"), HasSubstr("u must be finite")));

  bhpm::pde::ExperimentSet empty = set;
  empty.u = at::zeros({0, 3, 64}, kReal);
  EXPECT_THAT(error_message([&] { held_out_operator_data(empty, heat, 2); }),
              AllOf(HasSubstr("u must be"), HasSubstr("[0, 3, 64]")));

  bhpm::pde::ExperimentSet uneven = set;
  uneven.x = set.x.clone();
  uneven.x[10] = uneven.x[10].item<double>() + 0.01;
  EXPECT_THAT(error_message([&] { held_out_operator_data(uneven, heat, 2); }),
              HasSubstr("uniform grid"));

  bhpm::pde::ExperimentSet short_t = set;
  short_t.t = set.t.slice(0, 0, 2);
  EXPECT_THAT(error_message([&] { held_out_operator_data(short_t, heat, 2); }),
              AllOf(HasSubstr("t must be"), HasSubstr("[2] Double")));
}

TEST(HeldOutOperatorData, a_bounded_set_is_differentiated_on_its_chebyshev_points) {
  // u = exp(-t) sin(x) + x^2 on [0, 2] (not periodic): u_x and u_xx exact from Chebyshev
  // differentiation; the heat operator's target u_xx.
  namespace pde = bhpm::pde;
  const pde::ChebyshevGrid grid(0.0, 2.0, 24);
  pde::ExperimentSet set;
  set.name = "test";
  set.conditions = "left: u = 0; right: u = 0";
  set.x = grid.x();
  set.t = at::linspace(0.0, 1.0, 3, at::kDouble);
  const at::Tensor decay = at::exp(-set.t).unsqueeze(1);
  set.u = (decay * at::sin(set.x).unsqueeze(0) + set.x.pow(2).unsqueeze(0)).unsqueeze(0);
  pde::EquationOptions heat;
  heat.name = "heat";
  heat.nu = 1.0;
  const OperatorTestData data = held_out_operator_data(set, pde::make_equation(heat), 2);
  const at::Tensor u_x =
      (decay * at::cos(set.x).unsqueeze(0) + 2.0 * set.x.unsqueeze(0)).reshape(-1);
  const at::Tensor u_xx = (-decay * at::sin(set.x).unsqueeze(0) + 2.0).reshape(-1);
  EXPECT_LT((data.inputs.select(1, 1) - u_x).abs().max().item<double>(), 1e-10);
  EXPECT_LT((data.inputs.select(1, 2) - u_xx).abs().max().item<double>(), 1e-8);
  EXPECT_LT((data.target - u_xx).abs().max().item<double>(), 1e-8);
}
