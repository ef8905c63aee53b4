// fit_window_inflation against Monte Carlo ensembles whose truth is known: members drawn
// with variance V_p at each point, a truth c times as spread plus measurement noise of a
// known variance; kappa comes back as c, the coverage at kappa = 1 of a calibrated
// ensemble of few members is nominal (the t quantile), kappa lies between two experiments'
// own, and bad residuals are refused naming the experiment.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "solve/window_calibration.h"

using namespace bhpm;
using ::testing::HasSubstr;

namespace {

/// P points, each with its own spread V_p in [0.5, 2] (times `scale`^2): S members drawn
/// N(0, V_p), the truth N(0, c V_p), measured with noise N(0, noise_variance).
solve::WindowResiduals simulated_window(std::int64_t points, std::int64_t members, double c,
                                        double noise_variance, double scale, std::uint32_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.5, 2.0);
  solve::WindowResiduals residuals;
  residuals.members = members;
  for (std::int64_t p = 0; p < points; ++p) {
    const double spread = scale * scale * uniform(random);
    double sum = 0, sum_squares = 0;
    for (std::int64_t s = 0; s < members; ++s) {
      const double member = std::sqrt(spread) * normal(random);
      sum += member;
      sum_squares += member * member;
    }
    const double mean = sum / static_cast<double>(members);
    const double variance = (sum_squares - static_cast<double>(members) * mean * mean) /
                            static_cast<double>(members - 1);
    const double measured =
        std::sqrt(c * spread) * normal(random) + std::sqrt(noise_variance) * normal(random);
    residuals.error.push_back(measured - mean);
    residuals.variance.push_back(variance);
    residuals.noise_variance.push_back(noise_variance);
  }
  return residuals;
}

}  // namespace

TEST(WindowCalibration, a_calibrated_ensemble_of_few_members_covers_at_the_nominal_levels) {
  // Six members: the normal quantile would hold 95 % of the truth only about 91 % of the time.
  const std::vector<solve::WindowResiduals> experiments = {
      simulated_window(20000, 6, 1.0, 0.0, 1.0, 1), simulated_window(20000, 6, 1.0, 0.0, 3.0, 2)};
  for (const solve::CoverageLevel& level : solve::kCoverageLevels)
    EXPECT_NEAR(solve::window_coverage(experiments, 1.0, level), level.level, 0.01)
        << "level " << level.level;
  EXPECT_NEAR(solve::fit_window_inflation(experiments).factor, 1.0, 0.08);
}

TEST(WindowCalibration, kappa_comes_back_with_the_noise_taken_out) {
  for (const double c : {0.25, 4.0}) {
    // Noise up to the truth's own variance (c times the members' 0.5-2): left in, it would
    // read as spread the members lack. The quadrature of the two quantiles is exact without
    // noise and without spread, within 15 % between.
    const std::vector<solve::WindowResiduals> experiments = {
        simulated_window(20000, 8, c, 0.5 * c, 1.0, 3), simulated_window(20000, 8, c, 0.0, 1.0, 4),
        simulated_window(20000, 8, c, c, 1.0, 5)};
    const solve::WindowCalibration fit = solve::fit_window_inflation(experiments);
    EXPECT_NEAR(fit.factor / c, 1.0, 0.15) << "c = " << c;
    for (std::size_t l = 0; l < solve::kCoverageLevels.size(); ++l)
      EXPECT_NEAR(fit.coverage_after[l], solve::kCoverageLevels[l].level, 0.03);
    for (const solve::WindowExperimentFit& own : fit.experiments)
      EXPECT_NEAR(own.factor / c, 1.0, 0.15) << "c = " << c;
    // Without the noise taken out the noisiest experiment reads far too narrow.
    solve::WindowResiduals noise_kept = experiments[2];
    std::fill(noise_kept.noise_variance.begin(), noise_kept.noise_variance.end(), 0.0);
    EXPECT_GT(solve::fit_window_inflation({noise_kept}).factor / c, 1.6) << "c = " << c;
  }
}

TEST(WindowCalibration, kappa_lies_between_two_experiments_own) {
  const std::vector<solve::WindowResiduals> experiments = {
      simulated_window(5000, 6, 1.0, 0.0, 1.0, 6), simulated_window(5000, 6, 9.0, 0.0, 1.0, 7)};
  const solve::WindowCalibration fit = solve::fit_window_inflation(experiments);
  ASSERT_EQ(fit.experiments.size(), 2u);
  EXPECT_GT(fit.factor, fit.experiments[0].factor);
  EXPECT_LT(fit.factor, fit.experiments[1].factor);
  EXPECT_NEAR(fit.experiments[1].factor / 9.0, 1.0, 0.15);
  EXPECT_EQ(fit.experiments[0].points, 5000);
  EXPECT_EQ(fit.experiments[1].members, 6);
}

TEST(WindowCalibration, bad_residuals_are_refused_naming_the_experiment) {
  solve::WindowResiduals good = simulated_window(10, 4, 1.0, 0.0, 1.0, 8);
  solve::WindowResiduals one_member = good;
  one_member.members = 1;
  one_member.experiment = 1;
  EXPECT_THAT(
      [&] {
        solve::fit_window_inflation({good, one_member});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("training experiment 1: a sample variance needs 2 sound members")));
  solve::WindowResiduals short_variance = good;
  short_variance.variance.pop_back();
  EXPECT_THROW(solve::fit_window_inflation({short_variance}), std::invalid_argument);
  solve::WindowResiduals negative = good;
  negative.noise_variance[3] = -1.0;
  EXPECT_THAT([&] { solve::fit_window_inflation({negative}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("point 3")));
  EXPECT_THROW(solve::fit_window_inflation({}), std::invalid_argument);
  EXPECT_THROW(solve::window_coverage({good}, 0.0, solve::kCoverageLevels[0]),
               std::invalid_argument);
}
