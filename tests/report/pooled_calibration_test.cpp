// The report's pooled calibration (report/pooled_calibration.h) against mathematics:
// members and truth drawn from one normal law (mean and scale varying over the grid) are
// calibrated (coverage p, error/spread and spread/skill 1, a flat rank histogram); members
// half as wide give error/spread 2 sqrt((1 + 1/(4m)) / (1 + 1/m)), spread/skill
// sqrt(0.5 / 1.25) and heavy outer rank bins; three members at two grid values give the
// hand-computed sums; pool() takes the lower median m for the histogram and averages the
// finite-m correction; ties are split by a seeded draw.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/calibration_figure.h"
#include "report/pooled_calibration.h"
#include "solve/ensemble_statistics.h"
#include "support/ensemble_calibration.h"

using namespace bhpm;

namespace {

/// The calibration of members u [S, T, n] (member `rejected` rejected, -1: none) and truth.
report::PredictionCalibration calibration_of(const at::Tensor& u, const at::Tensor& truth,
                                             std::int64_t rejected = -1) {
  return testing_support::ensemble_calibration(u, truth, rejected,
                                               "bhpm-pooled-calibration-test.h5");
}

/// Predictions whose members are mu + width sigma Z and truth mu + sigma Z (Z standard
/// normal, 21 times of 100 values), mu and sigma varying over the grid: width 1 is a
/// calibrated ensemble. The last prediction has its first member rejected (m - 1 sound).
report::PooledCalibration pooled_gaussian(double width, std::int64_t predictions,
                                          std::int64_t members) {
  const std::int64_t times = 21, n = 100;
  auto generator = at::make_generator<at::CPUGeneratorImpl>(3);
  std::vector<report::CalibrationSums> sums;
  std::vector<double> levels;
  for (std::int64_t p = 0; p < predictions; ++p) {
    const at::Tensor mu = at::normal(0.0, 2.0, {times, n}, generator, at::kDouble);
    const at::Tensor sigma = at::rand({times, n}, generator, at::kDouble) + 0.5;
    const at::Tensor z = at::normal(0.0, 1.0, {members, times, n}, generator, at::kDouble);
    const at::Tensor y = at::normal(0.0, 1.0, {times, n}, generator, at::kDouble);
    const report::PredictionCalibration calibration =
        calibration_of(mu + width * sigma * z, mu + sigma * y, p == predictions - 1 ? 0 : -1);
    levels = calibration.levels;
    sums.push_back(calibration.sums);
  }
  return report::pool(levels, sums);
}

double coverage_at(const report::PooledCalibration& pooled, double p) {
  for (std::size_t l = 0; l < pooled.levels.size(); ++l)
    if (std::abs(pooled.levels[l] - p) < 1e-12) return pooled.coverage[l];
  ADD_FAILURE() << "no level " << p;
  return NAN;
}

}  // namespace

TEST(PooledCalibration, exchangeable_truth_is_calibrated) {
  const std::int64_t members = 9;
  const report::PooledCalibration pooled = pooled_gaussian(1.0, 4, members);
  EXPECT_EQ(pooled.predictions, 4);
  // 8000 scored values: the standard error of a coverage is at most 0.56 %, of the 95 %
  // coverage 0.24 %, of a rank bin (p = 0.1) 0.39 % (6000 values).
  ASSERT_EQ(pooled.levels.size(), pooled.coverage.size());
  for (std::size_t l = 0; l < pooled.levels.size(); ++l)
    EXPECT_NEAR(pooled.coverage[l], pooled.levels[l], 0.02) << pooled.levels[l];
  EXPECT_NEAR(coverage_at(pooled, 0.95), 0.95, 0.01);
  EXPECT_NEAR(pooled.error_spread, 1.0, 0.04);
  EXPECT_NEAR(pooled.spread_skill, 1.0, 0.03);
  // m of the histogram: the lower median of {8, 9, 9, 9}; the prediction with 8 left out.
  EXPECT_EQ(pooled.rank_members, members);
  EXPECT_EQ(pooled.rank_predictions, 3);
  ASSERT_EQ(pooled.rank_histogram.size(), static_cast<std::size_t>(members + 1));
  double total = 0;
  for (const double fraction : pooled.rank_histogram) {
    EXPECT_NEAR(fraction, 1.0 / (members + 1), 0.02);
    total += fraction;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NEAR(pooled.rank_histogram.front(), 1.0 / (members + 1), 0.015);
  EXPECT_NEAR(pooled.rank_histogram.back(), 1.0 / (members + 1), 0.015);
}

TEST(PooledCalibration, members_twice_too_narrow_are_overconfident) {
  const std::int64_t members = 9;
  const report::PooledCalibration pooled = pooled_gaussian(0.5, 4, members);
  // E (mean - y)^2 = sigma^2 (1 + 1/(4m)), E std^2 = sigma^2 / 4 (m = 9 for 3 of the 4).
  const double m = members;
  EXPECT_NEAR(pooled.error_spread, 2.0 * std::sqrt((1.0 + 0.25 / m) / (1.0 + 1.0 / m)), 0.06);
  // E ||X - X'|| / E ||X - y|| = sqrt(2 / 4) / sqrt(1 / 4 + 1) for fields of many values.
  EXPECT_NEAR(pooled.spread_skill, std::sqrt(0.5 / 1.25), 0.03);
  // The half-width 1.21 sigma of the 95 % band over the error's 1.01 sigma: about 77 %.
  EXPECT_LT(coverage_at(pooled, 0.95), 0.85);
  EXPECT_LT(coverage_at(pooled, 0.5), 0.4);
  EXPECT_GT(pooled.rank_histogram.front(), 1.5 / (members + 1));
  EXPECT_GT(pooled.rank_histogram.back(), 1.5 / (members + 1));
}

TEST(PooledCalibration, three_members_at_two_values_give_the_hand_computed_sums) {
  // t = 0 (left out of everything): values that would change every number if counted.
  const at::Tensor u = at::tensor({0.0, 0.0, 0.0, 0.0,    // member 1: t = 0, then t = 1
                                   10.0, 0.0, 1.0, 2.0,   // member 2
                                   0.0, 10.0, 2.0, 4.0},  // member 3
                                  at::kDouble)
                           .reshape({3, 2, 2});
  const at::Tensor truth = at::tensor({7.0, 7.0, 1.5, -1.0}, at::kDouble).reshape({2, 2});
  const report::PredictionCalibration calibration = calibration_of(u, truth);
  const report::CalibrationSums& sums = calibration.sums;
  // Value 1: members 0, 1, 2 (mean 1, std 1), y = 1.5, rank 2. Value 2: members 0, 2, 4
  // (mean 2, std 2), y = -1, rank 0.
  EXPECT_EQ(sums.members, 3);
  EXPECT_EQ(sums.points, 2);
  EXPECT_DOUBLE_EQ(sums.squared_error, 0.25 + 9.0);
  EXPECT_DOUBLE_EQ(sums.variance, 1.0 + 4.0);
  EXPECT_EQ(sums.rank_counts, (std::vector<double>{1, 0, 1, 0}));
  // Inside the p band mean -+ f_p std: value 1 when 0.5 <= f_p, value 2 when 3 <= 2 f_p.
  ASSERT_EQ(sums.inside.size(), calibration.levels.size());
  for (std::size_t l = 0; l < calibration.levels.size(); ++l) {
    const double f = solve::prediction_band_factor(3, calibration.levels[l]);
    EXPECT_EQ(sums.inside[l], (f >= 0.5 ? 1.0 : 0.0) + (f >= 1.5 ? 1.0 : 0.0))
        << calibration.levels[l];
  }
  // Whole fields (t = 1): X = (0, 0), (1, 2), (2, 4), y = (1.5, -1).
  const double pairwise = 2.0 * (std::sqrt(5.0) + std::sqrt(20.0) + std::sqrt(5.0)) / 6.0;
  const double truth_distance = (std::sqrt(3.25) + std::sqrt(9.25) + std::sqrt(25.25)) / 3.0;
  EXPECT_NEAR(sums.pairwise_distance, pairwise, 1e-12);
  EXPECT_NEAR(sums.truth_distance, truth_distance, 1e-12);

  const report::PooledCalibration pooled = report::pool(calibration.levels, {sums});
  EXPECT_NEAR(pooled.error_spread, std::sqrt(9.25 / 5.0) / std::sqrt(4.0 / 3.0), 1e-12);
  EXPECT_NEAR(pooled.spread_skill, pairwise / truth_distance, 1e-12);
  EXPECT_EQ(pooled.rank_histogram, (std::vector<double>{0.5, 0, 0.5, 0}));
  for (std::size_t l = 0; l < pooled.levels.size(); ++l)
    EXPECT_DOUBLE_EQ(pooled.coverage[l], sums.inside[l] / 2.0);
}

TEST(PooledCalibration, pool_sums_counts_and_takes_the_lower_median_m_for_ranks) {
  report::CalibrationSums a{2, 10, {4}, 3.0, 1.0, 2.0, 4.0, {1, 2, 7}};
  report::CalibrationSums b{3, 30, {26}, 5.0, 7.0, 6.0, 4.0, {6, 9, 9, 6}};
  const report::PooledCalibration two = report::pool({0.9}, {a, b});
  EXPECT_EQ(two.predictions, 2);
  EXPECT_DOUBLE_EQ(two.coverage[0], 30.0 / 40.0);
  const double correction = (std::sqrt(1.5) + std::sqrt(4.0 / 3.0)) / 2.0;
  EXPECT_NEAR(two.error_spread, std::sqrt(8.0 / 8.0) / correction, 1e-12);
  EXPECT_DOUBLE_EQ(two.spread_skill, 8.0 / 8.0);
  EXPECT_EQ(two.rank_members, 2);  // lower median of {2, 3}
  EXPECT_EQ(two.rank_predictions, 1);
  EXPECT_EQ(two.rank_histogram, (std::vector<double>{0.1, 0.2, 0.7}));
  const report::PooledCalibration three = report::pool({0.9}, {a, b, b});
  EXPECT_EQ(three.rank_members, 3);
  EXPECT_EQ(three.rank_predictions, 2);
  EXPECT_EQ(three.rank_histogram, (std::vector<double>{0.2, 0.3, 0.3, 0.2}));
  EXPECT_THROW(report::pool({0.9}, {}), std::invalid_argument);
  EXPECT_THROW(report::pool({0.5, 0.9}, {a}), std::invalid_argument);
}

TEST(PooledCalibration, ties_are_split_uniformly_by_a_seeded_draw) {
  const std::vector<double> sorted = {0, 1, 1, 1, 2};
  std::mt19937_64 ties(0);
  EXPECT_EQ(report::truth_rank(sorted, -1.0, ties), 0);
  EXPECT_EQ(report::truth_rank(sorted, 0.5, ties), 1);
  EXPECT_EQ(report::truth_rank(sorted, 5.0, ties), 5);
  // y = 1 equals three members: rank 1, 2, 3 or 4, each a quarter of the time.
  std::vector<double> counts(6, 0.0);
  const int draws = 40000;
  std::mt19937_64 first(0);
  std::vector<std::int64_t> ranks;
  for (int k = 0; k < draws; ++k) {
    ranks.push_back(report::truth_rank(sorted, 1.0, first));
    counts[static_cast<std::size_t>(ranks.back())] += 1.0 / draws;
  }
  EXPECT_EQ(counts[0], 0.0);
  EXPECT_EQ(counts[5], 0.0);
  for (std::size_t r = 1; r <= 4; ++r) EXPECT_NEAR(counts[r], 0.25, 0.01) << r;  // 4 SE
  std::mt19937_64 second(0);  // the same seed draws the same ranks
  for (int k = 0; k < 100; ++k) EXPECT_EQ(report::truth_rank(sorted, 1.0, second), ranks[k]);
}
