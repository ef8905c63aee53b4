// The report's calibration scores against Monte Carlo with a known answer: members and truth
// drawn from the same normal law give coverage at the nominal levels, error/spread
// sqrt(1 + 1/m) and a CRPS of 1/sqrt(pi) (the expected CRPS of N(0, 1) at a N(0, 1)
// outcome); a rejected member (NaN rows) is left out.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "report/calibration_figure.h"
#include "support/ensemble_calibration.h"

using namespace bhpm;

TEST(PredictionCalibration, gaussian_members_and_truth_are_calibrated) {
  const std::int64_t members = 17, times = 51, n = 200;
  auto generator = at::make_generator<at::CPUGeneratorImpl>(9);
  at::Tensor u = at::normal(0.0, 1.0, {members, times, n}, generator, at::kDouble);
  u[16].fill_(NAN);
  const at::Tensor truth = at::normal(0.0, 1.0, {times, n}, generator, at::kDouble);
  const report::PredictionCalibration calibration =
      testing_support::ensemble_calibration(u, truth, 16, "bhpm-calibration-test.h5");
  EXPECT_EQ(calibration.members, 16);
  ASSERT_EQ(calibration.levels.size(), calibration.coverage.size());
  // 10000 scored values: standard error at most 0.5 %.
  for (std::size_t l = 0; l < calibration.levels.size(); ++l)
    EXPECT_NEAR(calibration.coverage[l], calibration.levels[l], 0.02) << calibration.levels[l];
  ASSERT_EQ(calibration.t.size(), static_cast<std::size_t>(times - 1));
  const double mean_ratio =
      std::accumulate(calibration.error_spread.begin(), calibration.error_spread.end(), 0.0) /
      static_cast<double>(times - 1);
  EXPECT_NEAR(mean_ratio, std::sqrt(1.0 + 1.0 / 16.0), 0.03);
  EXPECT_NEAR(calibration.crps, 1.0 / std::sqrt(M_PI), 0.015);
}
