// Ensemble summaries against hand-computed order statistics; diverged members left out.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

#include "solve/ensemble_statistics.h"

using namespace bhpm::solve;

namespace {

/// Members s = 0..S-1 with u[s, t, x] = values[s] everywhere on a 2 x 3 grid.
EnsembleSolution constant_members(const std::vector<double>& values) {
  EnsembleSolution ensemble;
  const auto count = static_cast<std::int64_t>(values.size());
  ensemble.u =
      at::tensor(values, at::kDouble).view({count, 1, 1}).expand({count, 2, 3}).contiguous();
  ensemble.diverged = at::zeros({count}, at::kBool);
  ensemble.failures.assign(values.size(), "");
  return ensemble;
}

}  // namespace

// Eleven members 0, 1, .., 10: mean 5, standard deviation sqrt(11) (1/(S-1)), type-7
// quantiles at h = 10 p: 0.25, 5, 9.75.
TEST(EnsembleStatistics, mean_spread_and_quantiles) {
  EnsembleSolution ensemble = constant_members({3, 0, 10, 1, 9, 2, 8, 4, 7, 5, 6});
  const EnsembleStatistics statistics = ensemble_statistics(ensemble);
  EXPECT_EQ(statistics.members, 11);
  EXPECT_NEAR(statistics.mean[1][2].item<double>(), 5.0, 1e-14);
  EXPECT_NEAR(statistics.standard_deviation[0][0].item<double>(), std::sqrt(11.0), 1e-12);
  EXPECT_NEAR(statistics.lower[0][1].item<double>(), 0.25, 1e-12);
  EXPECT_NEAR(statistics.median[1][1].item<double>(), 5.0, 1e-12);
  EXPECT_NEAR(statistics.upper[1][0].item<double>(), 9.75, 1e-12);
}

TEST(EnsembleStatistics, diverged_members_are_left_out) {
  EnsembleSolution ensemble = constant_members({1, 2, 3});
  ensemble.u[1].fill_(NAN);
  ensemble.diverged[1] = true;
  const EnsembleStatistics statistics = ensemble_statistics(ensemble);
  EXPECT_EQ(statistics.members, 2);
  EXPECT_NEAR(statistics.mean[0][0].item<double>(), 2.0, 1e-14);
  EXPECT_EQ(ensemble.diverged_count(), 1);
  ensemble.diverged.fill_(true);
  EXPECT_THROW(ensemble_statistics(ensemble), std::runtime_error);
}

TEST(EnsembleStatistics, a_spread_that_overflows_is_an_error_naming_where) {
  EnsembleSolution ensemble = constant_members({1e300, -1e300, 3e300});
  try {
    ensemble_statistics(ensemble);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("overflows at time index 0, grid point 0"),
              std::string::npos)
        << error.what();
  }
  EXPECT_NO_THROW(ensemble_statistics(constant_members({1e150, -1e150, 3e150})));
}

TEST(EnsembleStatistics, comparison_with_the_truth) {
  const EnsembleStatistics statistics = ensemble_statistics(constant_members({0, 1, 2, 3, 4}));
  // Mean 2, std sqrt(2.5), band 2 -+ t_4(0.975) sqrt(1.2) sqrt(2.5) = 2 -+ 4.809.
  at::Tensor truth = at::full({2, 3}, 2.0, at::kDouble);
  truth[0][0] = 7.0;  // outside [-2.809, 6.809]
  const TruthComparison comparison = compare_with_truth(statistics, truth);
  EXPECT_NEAR(comparison.band_coverage, 5.0 / 6.0, 1e-14);
  EXPECT_NEAR(comparison.rmse, std::sqrt(25.0 / 6.0), 1e-14);
  EXPECT_NEAR(statistics.band_upper[1][2].item<double>(), 2.0 + 4.8091, 1e-3);
  EXPECT_NEAR(comparison.relative_l2, 5.0 / std::sqrt(49.0 + 5 * 4.0), 1e-14);
  EXPECT_THROW(compare_with_truth(statistics, at::zeros({3, 2}, at::kDouble)),
               std::invalid_argument);
}

TEST(EnsembleStatistics, rejected_members_are_left_out_like_diverged_ones) {
  EnsembleSolution ensemble = constant_members({1, 2, 3, 10});
  ensemble.u[3].fill_(NAN);
  ensemble.rejected = at::tensor({0, 0, 0, 1}, at::kLong).to(at::kBool);
  const EnsembleStatistics statistics = ensemble_statistics(ensemble);
  EXPECT_EQ(statistics.members, 3);
  EXPECT_EQ(ensemble.rejected_count(), 1);
  EXPECT_EQ(ensemble.diverged_count(), 0);
  EXPECT_TRUE(at::equal(ensemble.left_out(), ensemble.rejected));
}

// Monte Carlo: at 20000 grid values, m = 8 Gaussian members and a Gaussian truth drawn
// from the same law. The prediction band holds the truth 95 % of the time (standard error
// 0.15 %); the empirical 2.5-97.5 % quantiles of 8 members only about 7/9 x 0.95 = 0.74.
TEST(EnsembleStatistics, the_prediction_band_covers_at_the_nominal_rate) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(5);
  EnsembleSolution ensemble;
  ensemble.u = at::normal(0.0, 1.0, {8, 100, 200}, generator, at::kDouble);
  ensemble.diverged = at::zeros({8}, at::kBool);
  const at::Tensor truth = at::normal(0.0, 1.0, {100, 200}, generator, at::kDouble);
  const EnsembleStatistics statistics = ensemble_statistics(ensemble);
  EXPECT_NEAR(compare_with_truth(statistics, truth).band_coverage, 0.95, 0.006);
  const double quantile_coverage = ((truth >= statistics.lower) & (truth <= statistics.upper))
                                       .to(at::kDouble)
                                       .mean()
                                       .item<double>();
  EXPECT_LT(quantile_coverage, 0.85);
}
