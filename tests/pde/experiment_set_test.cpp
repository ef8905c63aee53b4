// Experiment sets: measurement points come from the stored grid, noise has the requested
// scale, and every random choice follows the seed.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "pde/experiment_set.h"

using namespace bhpm::pde;

namespace {

ExperimentSetOptions small_set(const std::string& name, std::int64_t experiments, double noise) {
  ExperimentSetOptions options;
  options.name = name;
  options.experiments = experiments;
  options.seed = 17;
  options.initial_condition.gp = {0.5, 1.0};
  options.measurements = {3000, noise};
  options.solve.t_end = 2.0;
  options.solve.output_dt = 0.05;
  options.solve.stepper.dt = 0.01;
  return options;
}

ExperimentSet simulate(const ExperimentSetOptions& options) {
  EquationOptions eq;
  return simulate_experiment_set(PeriodicGrid(-8, 8, 128), make_equation(eq), options);
}

}  // namespace

TEST(ExperimentSet, measurements_are_grid_values_plus_noise) {
  const ExperimentSet set = simulate(small_set("train", 2, 0.05));
  ASSERT_EQ(set.u.sizes(), (at::IntArrayRef{2, 41, 128}));
  ASSERT_EQ(set.sample_u.sizes(), (at::IntArrayRef{2, 3000}));
  const at::Tensor t_index = at::floor_divide(set.sample_index, 128);
  const at::Tensor x_index = at::remainder(set.sample_index, 128);
  for (int64_t e = 0; e < 2; ++e) {
    EXPECT_TRUE(at::equal(set.sample_u_clean[e], set.u[e].index({t_index[e], x_index[e]})));
    EXPECT_TRUE(at::equal(set.sample_x[e], set.x.index({x_index[e]})));
    EXPECT_TRUE(at::equal(set.sample_t[e], set.t.index({t_index[e]})));
    EXPECT_EQ(std::get<0>(at::_unique(set.sample_index[e])).numel(), 3000);
  }
  const double noise_std = (set.sample_u - set.sample_u_clean).std().item<double>();
  EXPECT_NEAR(noise_std, 0.05, 0.05 * 0.05);  // 6000 draws: relative error ~1%
}

TEST(ExperimentSet, seed_decides_everything_and_sets_differ) {
  const ExperimentSet a = simulate(small_set("train", 2, 0.1));
  const ExperimentSet b = simulate(small_set("train", 2, 0.1));
  EXPECT_TRUE(at::equal(a.u, b.u));
  EXPECT_TRUE(at::equal(a.sample_u, b.sample_u));
  const ExperimentSet test = simulate(small_set("test", 2, 0.1));
  EXPECT_FALSE(at::equal(a.u, test.u));
  EXPECT_FALSE(at::equal(a.sample_index, test.sample_index));
}

TEST(ExperimentSet, adding_experiments_keeps_the_earlier_ones) {
  const ExperimentSet two = simulate(small_set("train", 2, 0.1));
  const ExperimentSet three = simulate(small_set("train", 3, 0.1));
  EXPECT_TRUE(at::allclose(two.u, three.u.slice(0, 0, 2), 0, 1e-14));
  EXPECT_TRUE(at::equal(two.sample_index, three.sample_index.slice(0, 0, 2)));
}

TEST(ExperimentSet, rejects_more_points_than_the_grid_holds) {
  ExperimentSetOptions options = small_set("train", 1, 0.0);
  options.measurements.n_st = 41 * 128 + 1;
  EXPECT_THROW(simulate(options), std::invalid_argument);
  options.measurements.n_st = 41 * 128;
  EXPECT_EQ(simulate(options).sample_u.size(1), 41 * 128);
}
