// Operator metrics against values written out by hand: RMSE, NLPD of the normal density,
// coverage of central intervals at known z-scores and, statistically, of calibrated draws.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "eval/operator_metrics.h"
#include "support/error_message.h"
#include "support/tensors.h"

using bhpm::eval::operator_metrics;
using bhpm::eval::OperatorMetrics;
using bhpm::eval::rmse_per_experiment;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;
const double kHalfLog2Pi = 0.5 * std::log(2.0 * M_PI);

at::Tensor vec(const std::vector<double>& values) { return at::tensor(values, kReal); }

}  // namespace

TEST(OperatorMetrics, a_mean_equal_to_the_target_has_zero_error_and_full_coverage) {
  const at::Tensor y = vec({1.0, 2.0, 4.0});
  const OperatorMetrics m = operator_metrics(y.clone(), at::ones({3}, kReal), y);
  EXPECT_EQ(m.points, 3);
  EXPECT_EQ(m.rmse, 0.0);
  EXPECT_EQ(m.relative_rmse, 0.0);
  ASSERT_EQ(m.coverage.size(), 3u);
  for (const auto& [level, fraction] : m.coverage) EXPECT_EQ(fraction, 1.0) << level;
}

TEST(OperatorMetrics, known_residuals_give_the_rmse_written_out) {
  // Targets +-1 (population std 1); residuals 3, 4, 0, 0: RMSE = sqrt(25 / 4) = 2.5.
  const at::Tensor y = vec({1.0, -1.0, 1.0, -1.0});
  const at::Tensor mean = y - vec({3.0, 4.0, 0.0, 0.0});
  const OperatorMetrics m = operator_metrics(mean, at::ones({4}, kReal), y);
  EXPECT_NEAR(m.rmse, 2.5, 1e-15);
  EXPECT_NEAR(m.relative_rmse, 2.5, 1e-15);
  // Targets all equal: no spread to compare with.
  const OperatorMetrics flat = operator_metrics(vec({0.0, 1.0}), vec({1.0, 1.0}), vec({2.0, 2.0}));
  EXPECT_NEAR(flat.rmse, std::sqrt(2.5), 1e-15);
  EXPECT_TRUE(std::isnan(flat.relative_rmse));
}

TEST(OperatorMetrics, nlpd_is_the_negative_normal_log_density) {
  const OperatorMetrics at_mean = operator_metrics(vec({0.7}), vec({1.0}), vec({0.7}));
  EXPECT_DOUBLE_EQ(at_mean.median_nlpd, kHalfLog2Pi);
  EXPECT_DOUBLE_EQ(at_mean.mean_nlpd, kHalfLog2Pi);
  // y - m = 0.6, v = 0.09: 0.5 log(2 pi 0.09) + 0.36 / 0.18.
  const OperatorMetrics off = operator_metrics(vec({1.0}), vec({0.09}), vec({1.6}));
  EXPECT_NEAR(off.mean_nlpd, 0.5 * std::log(2.0 * M_PI * 0.09) + 2.0, 1e-14);
}

TEST(OperatorMetrics, median_nlpd_is_robust_to_an_outlier_and_the_mean_is_not) {
  // v = 1, residuals 0, 1, 2, 3, 10: NLPD = 0.5 log(2 pi) + r^2 / 2.
  const at::Tensor y = vec({0.0, 1.0, -2.0, 3.0, 10.0});
  const OperatorMetrics odd = operator_metrics(at::zeros({5}, kReal), at::ones({5}, kReal), y);
  EXPECT_NEAR(odd.median_nlpd, kHalfLog2Pi + 2.0, 1e-14);
  EXPECT_NEAR(odd.mean_nlpd, kHalfLog2Pi + (0.0 + 0.5 + 2.0 + 4.5 + 50.0) / 5.0, 1e-13);
  // Even count: the mean of the two middle values, (0.5 + 2) / 2.
  const OperatorMetrics even =
      operator_metrics(at::zeros({4}, kReal), at::ones({4}, kReal), vec({3.0, 0.0, 1.0, -2.0}));
  EXPECT_NEAR(even.median_nlpd, kHalfLog2Pi + 1.25, 1e-14);
}

TEST(OperatorMetrics, coverage_counts_points_inside_the_central_intervals) {
  // sd 2, points at z = 0.5, -1.0, 1.7, -2.5. Normal quantiles z_{(1+a)/2}: 50% 0.674489750196,
  // 90% 1.644853626951, 95% 1.959963984540, 99% 2.575829303549. Inside 50%: z = 0.5;
  // 90%: 0.5, 1.0; 95%: 0.5, 1.0, 1.7; 99%: all four.
  const at::Tensor mean = vec({1.0, -3.0, 0.0, 2.0});
  const at::Tensor y = mean + 2.0 * vec({0.5, -1.0, 1.7, -2.5});
  const OperatorMetrics m =
      operator_metrics(mean, at::full({4}, 4.0, kReal), y, {0.99, 0.5, 0.9, 0.95});
  ASSERT_EQ(m.coverage.size(), 4u);
  const std::vector<std::pair<double, double>> expected = {
      {0.99, 1.0}, {0.5, 0.25}, {0.9, 0.5}, {0.95, 0.75}};
  EXPECT_EQ(m.coverage, expected);
  // Just inside and just outside the 90% interval.
  const double z90 = 1.644853626951;
  EXPECT_EQ(operator_metrics(vec({0.0}), vec({1.0}), vec({z90 - 1e-9}), {0.9}).coverage[0].second,
            1.0);
  EXPECT_EQ(operator_metrics(vec({0.0}), vec({1.0}), vec({z90 + 1e-9}), {0.9}).coverage[0].second,
            0.0);
}

TEST(OperatorMetrics, calibrated_predictions_cover_their_nominal_levels) {
  const int n = 20000;
  std::mt19937_64 rng(20200417);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> mean(n), variance(n), y(n);
  double expected_nlpd = 0.0;
  for (int i = 0; i < n; ++i) {
    mean[i] = 4.0 * uniform(rng) - 2.0;
    variance[i] = std::exp(6.0 * uniform(rng) - 4.0);  // 0.018 .. 7.4
    y[i] = mean[i] + std::sqrt(variance[i]) * normal(rng);
    expected_nlpd += (0.5 * std::log(2.0 * M_PI * variance[i]) + 0.5) / n;
  }
  const OperatorMetrics m =
      operator_metrics(vec(mean), vec(variance), vec(y), {0.5, 0.8, 0.9, 0.95, 0.99});
  for (const auto& [level, fraction] : m.coverage) EXPECT_NEAR(fraction, level, 0.01) << level;
  // E[NLPD] = E[0.5 log(2 pi v)] + 1/2; the sampling sd of the mean is about 0.005.
  EXPECT_NEAR(m.mean_nlpd, expected_nlpd, 0.02);
}

TEST(OperatorMetrics, bad_input_names_the_argument_and_the_rule) {
  const at::Tensor ok = vec({0.0, 1.0, 2.0});
  EXPECT_THAT(error_message([&] {
                operator_metrics(vec({0.0, 1.0}), ok, ok);
              }),
              AllOf(HasSubstr("mean"), HasSubstr("[3]"), HasSubstr("[2]")));
  EXPECT_THAT(error_message([&] { operator_metrics(ok, ok.to(at::kFloat), ok); }),
              HasSubstr("variance"));
  EXPECT_THAT(error_message([&] {
                operator_metrics(ok, vec({1.0, 0.0, 1.0}), ok);
              }),
              AllOf(HasSubstr("variance must be > 0"), HasSubstr("got 0 at index 1")));
  EXPECT_THAT(error_message([&] {
                operator_metrics(ok, vec({1.0, 1.0, -2.0}), ok);
              }),
              HasSubstr("got -2 at index 2"));
  EXPECT_THAT(error_message([&] {
                operator_metrics(ok, ok + 1.0, vec({0.0, NAN, 1.0}));
              }),
              AllOf(HasSubstr("target must be finite"), HasSubstr("index 1")));
  EXPECT_THAT(error_message([&] {
                operator_metrics(vec({INFINITY, 0.0, 0.0}), ok + 1.0, ok);
              }),
              HasSubstr("mean must be finite"));
  EXPECT_THAT(error_message([&] { operator_metrics(vec({}), vec({}), vec({})); }),
              HasSubstr("at least one"));
  EXPECT_THAT(error_message([&] {
                operator_metrics(ok, ok + 1.0, ok, {0.5, 1.0});
              }),
              AllOf(HasSubstr("levels[1]"), HasSubstr("(0, 1)"), HasSubstr("got 1")));
}

TEST(OperatorMetricsPerExperiment, rmse_is_taken_over_each_experiments_points) {
  // Experiment 0: residuals 1, 3 -> sqrt(5); experiment 2: residual 2 -> 2; experiment 1 empty.
  const at::Tensor target = vec({1.0, 3.0, 2.0});
  const at::Tensor experiment = at::tensor(std::vector<std::int64_t>{0, 0, 2}, at::kLong);
  const std::vector<double> rmse =
      rmse_per_experiment(at::zeros({3}, kReal), target, experiment, 3);
  ASSERT_EQ(rmse.size(), 3u);
  EXPECT_NEAR(rmse[0], std::sqrt(5.0), 1e-15);
  EXPECT_TRUE(std::isnan(rmse[1]));
  EXPECT_NEAR(rmse[2], 2.0, 1e-15);
  EXPECT_THAT(error_message([&] { rmse_per_experiment(target, target, experiment, 2); }),
              AllOf(HasSubstr("[0, 2)"), HasSubstr("got 2 at index 2")));
  const at::Tensor int32 = experiment.to(at::kInt);
  EXPECT_THAT(error_message([&] { rmse_per_experiment(target, target, int32, 3); }),
              HasSubstr("experiment must be an int64 tensor"));
}
