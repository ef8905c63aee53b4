// Held-out leaves for truth-free scoring (model/held_out_leaves.h): the kept-back split,
// and the leaves' predictive of a measurement: the network's value as its mean, the noise
// variance plus a Laplace variance that contracts as the fit sees more points.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>

#include "model/held_out_leaves.h"
#include "model/training_fixture.h"

using namespace bhpm;

namespace {

model::LeafData uniform_points(std::int64_t count, std::uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto real = at::TensorOptions().dtype(at::kDouble);
  model::LeafData data;
  data.x = at::empty({2, count}, real).uniform_(-8.0, 8.0, generator);
  data.t = at::empty({2, count}, real).uniform_(0.0, 10.0, generator);
  data.u = at::sin(0.3 * data.x - 0.2 * data.t);
  data.boxes.assign(2, nn::DomainBox{-8.0, 8.0, 0.0, 10.0});
  return data;
}

}  // namespace

TEST(HeldOutLeaves, keep_back_every_fifth_point_of_each_leaf) {
  const model::LeafData data = uniform_points(12, 1);
  const auto [fitted, kept] = model::keep_back_points(data, 5);
  EXPECT_EQ(fitted.points(), 10);
  EXPECT_EQ(kept.points(), 2);
  EXPECT_TRUE(at::equal(kept.x.select(1, 0), data.x.select(1, 4)));
  EXPECT_TRUE(at::equal(kept.u.select(1, 1), data.u.select(1, 9)));
  EXPECT_TRUE(at::equal(fitted.t.select(1, 4), data.t.select(1, 5)));
  EXPECT_EQ(fitted.boxes.size(), 2u);
  EXPECT_THROW(model::keep_back_points(data, 1), std::invalid_argument);
  EXPECT_THROW(model::keep_back_points(data, 13), std::invalid_argument);
}

TEST(HeldOutLeaves, predictive_is_the_leaf_value_with_noise_and_a_contracting_laplace_variance) {
  model::LeafModelOptions options = testing_fixture::leaf_options(2, 8);
  options.initial_noise = 0.05;
  const model::LeafModel leaves(options);
  const model::LeafData points = uniform_points(30, 2);
  const gp::MarginalNormal few = model::leaf_predictive(*leaves, uniform_points(20, 3), points);
  const gp::MarginalNormal many = model::leaf_predictive(*leaves, uniform_points(2000, 3), points);
  const at::Tensor value = leaves->network().forward(points.x, points.t, points.boxes);
  EXPECT_TRUE(at::allclose(few.mean, value.reshape({-1})));
  EXPECT_EQ(few.variance.sizes(), (std::vector<std::int64_t>{60}));
  EXPECT_TRUE((many.variance > 0.05 * 0.05).all().item<bool>());   // noise plus Var u > 0
  EXPECT_TRUE((many.variance < few.variance).all().item<bool>());  // 100x the points
}

TEST(HeldOutLeaves, fitting_reduces_the_error_at_the_kept_back_points) {
  const model::LeafData data = uniform_points(500, 4);
  const auto [fitted, kept] = model::keep_back_points(data, 5);
  model::LeafModelOptions options = testing_fixture::leaf_options(2, 16);
  options.network.hidden_layers = 2;
  model::LeafTrainingOptions schedule;
  schedule.iterations = 1000;
  schedule.learning_rate = 3e-3;
  const model::LeafModel untrained(options);
  const model::LeafModel trained = model::fit_held_out_leaves(fitted, options, schedule, 7);
  const auto error = [&](const model::LeafModel& leaves) {
    return (leaves->network().forward(kept.x, kept.t, kept.boxes) - kept.u)
        .square()
        .mean()
        .item<double>();
  };
  EXPECT_LT(error(trained), 0.01 * error(untrained));
  EXPECT_EQ(trained->network().options().leaves, 2);
}
