// calibrate_operator: one kappa pooled over the training experiments' left-out residuals,
// each experiment's alone, and the coverages; the file it makes read back.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "solve/discrepancy_calibration.h"
#include "solve/operator_calibration.h"

using namespace bhpm;
using ::testing::HasSubstr;

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);

/// Residuals r = sqrt(kappa) s exactly, so that r^2 / s^2 = kappa at every point, n = 0.
gp::ScoredResiduals residuals_of_ratio(double kappa, std::int64_t points) {
  const at::Tensor s2 = at::linspace(0.5, 2.0, points, kReal);
  at::Tensor sign = at::ones({points}, kReal);
  sign.slice(0, 0, points, 2).fill_(-1.0);
  return {sign * (kappa * s2).sqrt(), s2, at::zeros_like(s2)};
}

}  // namespace

TEST(OperatorCalibration, pools_the_experiments_and_fits_each_alone) {
  const solve::OperatorCalibration fit =
      solve::calibrate_operator({residuals_of_ratio(2.0, 100), residuals_of_ratio(8.0, 100)});
  ASSERT_EQ(fit.experiments.size(), 2u);
  EXPECT_NEAR(fit.experiments[0].factor, 2.0, 1e-6);
  EXPECT_NEAR(fit.experiments[1].factor, 8.0, 1e-6);
  // Without noise the maximiser is mean r^2 / s^2 over all 200 rows (to the sqrt(eps) that
  // a flat maximum allows).
  EXPECT_NEAR(fit.pooled.factor, 5.0, 1e-6);
  EXPECT_EQ(fit.pooled.points, 200);
  ASSERT_EQ(fit.plain_coverage.size(), solve::kOperatorCoverageLevels.size());
  // |r| / s = sqrt(2) and sqrt(8): plain, both outside the 50 % half-width 0.674 and only
  // the first inside 1.96 (95 %); inflated by 5, |r| / sqrt(5) s = 0.63 and 1.26.
  EXPECT_DOUBLE_EQ(fit.plain_coverage[0], 0.0);
  EXPECT_DOUBLE_EQ(fit.plain_coverage[1], 0.5);
  EXPECT_DOUBLE_EQ(fit.inflated_coverage[0], 0.5);
  EXPECT_DOUBLE_EQ(fit.inflated_coverage[1], 1.0);
}

TEST(OperatorCalibration, needs_two_experiments) {
  try {
    solve::calibrate_operator({residuals_of_ratio(2.0, 10)});
    FAIL() << "accepted one experiment";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("2 training experiments (got 1)"));
  }
}

TEST(OperatorCalibration, file_records_the_method_and_kappa_and_reads_back) {
  const solve::OperatorCalibration fit =
      solve::calibrate_operator({residuals_of_ratio(3.0, 50), residuals_of_ratio(3.0, 50)});
  const std::string path =
      (std::filesystem::temp_directory_path() / "bhpm_operator_discrepancy.json").string();
  solve::write_discrepancy_file(path, solve::operator_discrepancy(fit, 1, 1e-4), "seed = 1\n");
  const solve::DiscrepancyFile file = solve::read_discrepancy_file(path);
  EXPECT_EQ(file.method, "operator");
  EXPECT_NEAR(file.inflation, 3.0, 1e-6);
  EXPECT_EQ(file.variance, 0.0);
  EXPECT_EQ(file.order, 1);
  EXPECT_EQ(file.config, "seed = 1\n");
  std::ifstream text(path);
  const std::string json((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
  EXPECT_THAT(json, HasSubstr("\"method\": \"operator\""));
  EXPECT_THAT(json, HasSubstr("\"inflated_coverage\""));
  std::filesystem::remove(path);
}
