// The drift of the spatial mean that decides whether predictions conserve it
// (model/mean_drift.h), on fields whose mean is known in closed form.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "model/mean_drift.h"

using namespace bhpm;

namespace {

/// [2, T, X] on x in [0, 1) (periodic) and t in [0, 1]: leaf 0 a travelling wave
/// sin 2 pi (x - t), whose mean stays 0; leaf 1 the same plus a t.
at::Tensor travelling_waves(double a) {
  const std::int64_t points = 64, times = 11;
  const at::Tensor x = (at::arange(points, at::kDouble) / points).view({1, -1});
  const at::Tensor t = at::linspace(0.0, 1.0, times, at::kDouble).view({-1, 1});
  const at::Tensor wave = at::sin(2.0 * M_PI * (x - t));
  return at::stack({wave, wave + a * t});
}

}  // namespace

TEST(MeanDrift, is_the_largest_move_of_the_mean_against_the_spread_of_u) {
  const model::MeanDrift drift = model::mean_drift(travelling_waves(0.003));
  ASSERT_EQ(drift.drift.size(), 2u);
  EXPECT_LT(drift.drift[0], 1e-14);
  EXPECT_NEAR(drift.drift[1], 0.003, 1e-14);
  EXPECT_NEAR(drift.scale[0], std::sqrt(0.5), 1e-12);  // RMS of a sine over whole periods
  EXPECT_NEAR(drift.relative(), 0.003 / drift.scale[1], 1e-14);
  EXPECT_TRUE(drift.conserved());
}

TEST(MeanDrift, a_source_of_a_few_per_cent_is_not_conservation) {
  EXPECT_FALSE(model::mean_drift(travelling_waves(0.05)).conserved());
}

TEST(MeanDrift, constant_fields_conserve_their_mean) {
  const model::MeanDrift drift = model::mean_drift(at::full({3, 4, 8}, 0.7, at::kDouble));
  EXPECT_EQ(drift.relative(), 0.0);
  EXPECT_TRUE(drift.conserved());
}

TEST(MeanDrift, refuses_fields_that_are_not_leaf_by_time_by_space) {
  EXPECT_THROW(model::mean_drift(at::zeros({4, 8}, at::kDouble)), std::invalid_argument);
}
