// Simulated experiments on a bounded domain (pde/bounded_experiment_set.h): GP initial
// conditions corrected to meet the conditions at t = 0, the periodic draw's Fourier series
// at the Chebyshev points, heat between walls against its exact solution, measurements
// from the stored grid spread uniformly in x, and the refusals.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pde/boundary_condition_text.h"
#include "pde/bounded_experiment_set.h"
#include "support/error_message.h"

using namespace bhpm::pde;
using testing::HasSubstr;

namespace {

const double kPi = std::acos(-1.0);

InitialConditionOptions gp_draws() {
  InitialConditionOptions options;
  options.kind = "gp";
  options.gp = {0.5, 1.0};
  return options;
}

/// sum_m w_m (D^(m) u)(end) for condition c at the end's node.
double condition_value(const ChebyshevGrid& grid, const BoundaryCondition& c, const at::Tensor& u,
                       std::int64_t node) {
  double value = 0.0;
  for (std::size_t m = 0; m < c.weights.size(); ++m)
    value += c.weights[m] *
             at::matmul(grid.differentiation_matrix(static_cast<int>(m)), u)[node].item<double>();
  return value;
}

/// u_t = u_xx between walls u = 0 on the grid from u0 = sin(x), to t = 1 with outputs
/// every output_dt, n_st measurements per experiment.
ExperimentSet heat_between_walls(const ChebyshevGrid& grid, std::int64_t experiments,
                                 std::int64_t n_st, double output_dt) {
  EquationOptions heat;
  heat.name = "heat";
  heat.nu = 1.0;
  BoundaryConditions walls;
  walls.left = {parse_boundary_condition("u = 0", 1.0, "", "left")};
  walls.right = {parse_boundary_condition("u = 0", 1.0, "", "right")};
  ExperimentSetOptions options;
  options.name = "test";
  options.experiments = experiments;
  options.initial_condition.kind = "expression";
  options.initial_condition.expression = "sin(x)";
  options.measurements = {n_st, 0.0};
  options.solve.t_end = 1.0;
  options.solve.output_dt = output_dt;
  return simulate_bounded_experiment_set(grid, 32, make_equation(heat), walls, options);
}

}  // namespace

TEST(BoundedExperimentSet, gp_initial_conditions_meet_every_condition_at_t_zero) {
  const ChebyshevGrid grid(-4.0, 4.0, 64);
  BoundaryConditions conditions;
  conditions.left = {parse_boundary_condition("u = 0.2 + sin(t)", 1.0, "", "left")};
  conditions.right = {parse_boundary_condition("u_x = 0.1", 1.0, "", "right"),
                      parse_boundary_condition("2 u - u_xx = 0", 1.0, "", "right")};
  const at::Tensor u0 =
      bounded_initial_conditions(grid, 64, conditions, gp_draws(), 3, 7, "train/initial_condition");
  ASSERT_EQ(u0.sizes(), (at::IntArrayRef{3, 65}));
  for (std::int64_t e = 0; e < 3; ++e) {
    EXPECT_NEAR(condition_value(grid, conditions.left[0], u0[e], 0), 0.2, 1e-9);
    EXPECT_NEAR(condition_value(grid, conditions.right[0], u0[e], 64), 0.1, 1e-9);
    EXPECT_NEAR(condition_value(grid, conditions.right[1], u0[e], 64), 0.0, 1e-9);
  }
  EXPECT_GT((u0[0] - u0[1]).abs().max().item<double>(), 0.05);  // independent draws
}

TEST(BoundedExperimentSet, without_conditions_a_draw_is_its_fourier_series_at_the_points) {
  // x_0 = a and the middle Chebyshev point (a + b)/2 are also points of the uniform grid of
  // `modes` points, where the trigonometric interpolant equals the draw.
  const ChebyshevGrid grid(0.0, 2.0 * kPi, 32);
  const InitialConditionOptions options = gp_draws();
  const at::Tensor u0 = bounded_initial_conditions(grid, 64, {}, options, 2, 3, "s");
  const at::Tensor draws =
      make_initial_conditions(PeriodicGrid(0.0, 2.0 * kPi, 64), options, 2, 3, "s");
  EXPECT_NEAR(u0[1][0].item<double>(), draws[1][0].item<double>(), 1e-12);
  EXPECT_NEAR(u0[1][16].item<double>(), draws[1][32].item<double>(), 1e-12);
  // At the right end, the period: x = b is x = a again.
  EXPECT_NEAR(u0[1][32].item<double>(), draws[1][0].item<double>(), 1e-12);
}

TEST(BoundedExperimentSet, heat_between_walls_is_its_exact_solution_and_measured_on_the_grid) {
  // u_t = u_xx on [0, pi], u = 0 at both walls, u0 = sin(x): u = exp(-t) sin(x).
  const ChebyshevGrid grid(0.0, kPi, 24);
  const ExperimentSet set = heat_between_walls(grid, 2, 200, 0.1);
  EXPECT_EQ(set.conditions, "left: u = 0; right: u = 0");
  ASSERT_EQ(set.u.sizes(), (at::IntArrayRef{2, 11, 25}));
  const at::Tensor exact = at::exp(-set.t).unsqueeze(1) * at::sin(grid.x()).unsqueeze(0);
  EXPECT_LT((set.u[1] - exact).abs().max().item<double>(), 1e-7);
  const at::Tensor flat = set.u.reshape({2, -1});
  EXPECT_TRUE(at::equal(set.sample_u_clean, at::gather(flat, 1, set.sample_index)));
  EXPECT_TRUE(at::equal(set.sample_x, grid.x().index({at::remainder(set.sample_index, 25)})));
}

TEST(BoundedExperimentSet, measurements_spread_uniformly_in_x_not_like_the_points) {
  // 300 of 21 x 65 grid values on [0, pi]: the middle half of the interval holds a third of
  // the Chebyshev points but half of the measurements (binomial sd 0.029).
  const ChebyshevGrid grid(0.0, kPi, 64);
  const ExperimentSet set = heat_between_walls(grid, 1, 300, 0.05);
  const auto middle = [](const at::Tensor& x) {
    return ((x > kPi / 4) & (x < 3 * kPi / 4)).to(at::kDouble).mean().item<double>();
  };
  EXPECT_NEAR(middle(grid.x()), 1.0 / 3.0, 0.02);
  EXPECT_NEAR(middle(set.sample_x[0]), 0.5, 0.09);
  EXPECT_EQ(std::get<0>(at::_unique(set.sample_index[0])).numel(), 300);  // no repeats
}

TEST(BoundedExperimentSet, refuses_a_file_and_conditions_that_do_not_fit) {
  const ChebyshevGrid grid(0.0, 1.0, 16);
  InitialConditionOptions file;
  file.kind = "file";
  file.file = "u0.txt";
  EXPECT_THAT(bhpm::testing_support::error_message(
                  [&] { bounded_initial_conditions(grid, 16, {}, file, 1, 1, "s"); }),
              HasSubstr("on a bounded domain the initial conditions are \"gp\" draws"));
  BoundaryConditions twice;
  twice.left = {parse_boundary_condition("u = 0", 1.0, "", "l"),
                parse_boundary_condition("2 u = 1", 1.0, "", "l")};
  EXPECT_THAT(bhpm::testing_support::error_message(
                  [&] { bounded_initial_conditions(grid, 16, twice, gp_draws(), 1, 1, "s"); }),
              HasSubstr("cannot all be met"));
  EquationOptions burgers;
  BoundaryConditions too_many = twice;
  too_many.left[1] = parse_boundary_condition("u_x = 0", 1.0, "", "l");
  too_many.right = {parse_boundary_condition("u = 0", 1.0, "", "r")};
  ExperimentSetOptions options;
  options.experiments = 1;
  options.initial_condition = gp_draws();
  options.measurements = {10, 0.0};
  options.solve.t_end = 0.1;
  options.solve.output_dt = 0.1;
  EXPECT_THAT(bhpm::testing_support::error_message([&] {
                simulate_bounded_experiment_set(grid, 16, make_equation(burgers), too_many,
                                                options);
              }),
              HasSubstr("needs 1 condition at the left end"));
}
