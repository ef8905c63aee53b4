// calibrate_operator: cell means of the left-out residuals against those of the samples'
// deviations, per experiment and time bin, less the in-sample residuals' (the targets' own
// error); one kappa whose Gaussian bands hold the bins' errors at the nominal 50, 90 and
// 95 % on average; a Monte Carlo field whose error is sqrt(c) times a draw like the
// samples' (plus fast noise that the cell means average out, plus a slow error of the
// targets that the in-sample residuals carry too) gives c back, and so does one whose
// deviations q(u) makes only in part; the file it makes reads back.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "solve/discrepancy_calibration.h"
#include "solve/operator_calibration.h"
#include "support/tensors.h"

using namespace bhpm;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;

/// A smooth random field of (x, t) on [-8, 8] x [0, 10]: 32 random waves (wavelengths
/// 3-60 in x, 12-120 in t), enough independent parts that one draw fills a bin's cells.
at::Tensor smooth_field(const at::Tensor& x, const at::Tensor& t) {
  at::Tensor value = at::zeros_like(x);
  for (int j = 0; j < 32; ++j) {
    const at::Tensor a = at::rand({4}, kReal);
    value += at::randn({}, kReal) * at::sin((0.1 + 2.0 * a[0]) * x + 6.3 * a[1]) *
             at::cos((0.05 + 0.5 * a[2]) * t + 6.3 * a[3]);
  }
  return value;
}

/// Rows at random points of the window; the residual sqrt(c) times a field drawn as the
/// S deviations are, plus white noise of sd `noise`.
gp::PosteriorResiduals synthetic(double c, std::int64_t rows, std::int64_t samples, double noise) {
  const at::Tensor x = -8.0 + 16.0 * at::rand({rows}, kReal);
  const at::Tensor t = 10.0 * at::rand({rows}, kReal);
  std::vector<at::Tensor> deviations;
  for (std::int64_t s = 0; s < samples; ++s) deviations.push_back(smooth_field(x, t));
  const at::Tensor residual = std::sqrt(c) * smooth_field(x, t) + noise * at::randn({rows}, kReal);
  return {residual, at::stack(deviations), x, t, -8.0, 8.0, 0.0, 10.0, at::Tensor(), at::Tensor()};
}

}  // namespace

TEST(OperatorCalibration, bins_hold_the_cell_means_squared) {
  // Two rows per cell would be left out; four rows in one cell of the first time bin.
  const at::Tensor x = at::tensor({-7.99, -7.98, -7.97, -7.96}, kReal);
  const at::Tensor t = at::tensor({0.1, 0.2, 0.3, 0.4}, kReal);
  const at::Tensor residual = at::tensor({1.0, 3.0, 1.0, 3.0}, kReal);  // mean 2
  const at::Tensor deviations =
      at::stack({at::ones({4}, kReal), -at::ones({4}, kReal)});  // cell means +-1: spread 1
  gp::PosteriorResiduals rows{residual, deviations,   x,           t, -8.0, 8.0, 0.0,
                              10.0,     at::Tensor(), at::Tensor()};
  solve::OperatorBins bins = solve::operator_bins(rows);
  ASSERT_EQ(bins.cells.size(), static_cast<std::size_t>(solve::kTimeBins));
  EXPECT_EQ(bins.cells[0], 1);
  EXPECT_DOUBLE_EQ(bins.squared_error[0], 4.0);
  EXPECT_DOUBLE_EQ(bins.in_sample_error[0], 0.0);  // none given: nothing subtracted
  EXPECT_DOUBLE_EQ(bins.variance[0], 1.0);
  EXPECT_EQ(bins.cells[1], 0);
  EXPECT_TRUE(std::isnan(bins.squared_error[1]));
  EXPECT_NEAR(bins.factor, 4.0, 1e-9);                       // one bin: its ratio
  rows.in_sample = at::tensor({0.0, 2.0, 0.0, 2.0}, kReal);  // mean 1: E = 4 - 1
  bins = solve::operator_bins(rows);
  EXPECT_DOUBLE_EQ(bins.left_out_error[0], 4.0);
  EXPECT_DOUBLE_EQ(bins.in_sample_error[0], 1.0);
  EXPECT_DOUBLE_EQ(bins.squared_error[0], 3.0);
  EXPECT_NEAR(bins.factor, 3.0, 1e-9);
  rows.in_sample = at::full({4}, 3.0, kReal);                // more in-sample error than left out
  EXPECT_DOUBLE_EQ(solve::operator_bins(rows).factor, 1.0);  // no error left to scale to
  rows.in_sample = at::zeros({3}, kReal);
  EXPECT_THROW(solve::operator_bins(rows), std::invalid_argument);
}

TEST(OperatorCalibration, gaussian_coverage_of_bins_is_erf_of_the_band_over_the_error) {
  const auto scaled = [](double error) {  // a bin whose spread q(u) makes whole: V = kappa
    return solve::BinSpread{error, 0.0, 0.0, 1.0};
  };
  for (const solve::CoverageLevel& level : solve::kCoverageLevels) {
    // z_p is Phi^{-1}((1 + p) / 2): a band of the error's own width holds p.
    EXPECT_NEAR(solve::gaussian_bins_coverage({scaled(2.5)}, 2.5, level), level.level, 1e-14);
    // A bin whose error the in-sample residuals explain (E = 0) is always held.
    EXPECT_NEAR(solve::gaussian_bins_coverage({scaled(2.5), scaled(0.0)}, 2.5, level),
                (level.level + 1) / 2, 1e-14);
    // kappa = E / 4 halves the band: P(|Z| <= z / 2).
    EXPECT_NEAR(solve::gaussian_bins_coverage({scaled(4.0)}, 1.0, level),
                std::erf(level.normal_quantile / 2.0 / std::sqrt(2.0)), 1e-14);
    // V(kappa) = A + 2 sqrt(kappa) B + kappa C above 1: 1 + 2 * 2 * 0.5 + 4 * 2 = 11 at 4.
    EXPECT_NEAR(solve::gaussian_bins_coverage({{11.0, 1.0, 0.5, 2.0}}, 4.0, level), level.level,
                1e-14);
    // Below 1 kappa scales all of V = A + 2 B + C = 4: 1 at kappa = 1 / 4.
    EXPECT_NEAR(solve::gaussian_bins_coverage({{1.0, 1.0, 0.5, 2.0}}, 0.25, level), level.level,
                1e-14);
  }
  EXPECT_THROW(solve::gaussian_bins_coverage({}, 1.0, solve::kCoverageLevels[0]),
               std::invalid_argument);
}

TEST(OperatorCalibration, scales_with_the_error_and_lies_between_the_experiments) {
  at::manual_seed(1);
  gp::PosteriorResiduals a = synthetic(1.0, 4000, 8, 0.0);
  // Residuals 10 and 20 times the first sample's deviation, the same rows and samples: E/V
  // per bin is 100 q_k and 400 q_k, q_k that sample's share of the spread.
  a.residual = 10.0 * a.deviations[0];
  gp::PosteriorResiduals b = a;
  b.residual = 20.0 * a.deviations[0];
  const solve::OperatorCalibration fit = solve::calibrate_operator({a, b});
  ASSERT_EQ(fit.experiments.size(), 2u);
  EXPECT_NEAR(fit.experiments[1].factor / fit.experiments[0].factor, 4.0, 1e-6);
  EXPECT_GT(fit.factor, fit.experiments[0].factor);
  EXPECT_LT(fit.factor, fit.experiments[1].factor);
  EXPECT_EQ(fit.bins, 2 * solve::kTimeBins);
  // At the fitted kappa the bands hold the pooled bins' errors near every level fitted.
  std::vector<solve::BinSpread> spreads;
  for (const solve::OperatorBins& bins : fit.experiments)
    for (std::size_t k = 0; k < bins.variance.size(); ++k) {
      EXPECT_DOUBLE_EQ(bins.inducing_variance[k], bins.variance[k]);  // no h: all of g scales
      spreads.push_back({bins.squared_error[k], bins.fixed_variance[k], bins.cross_variance[k],
                         bins.inducing_variance[k]});
    }
  for (const solve::CoverageLevel& level : solve::kCoverageLevels)
    EXPECT_NEAR(solve::gaussian_bins_coverage(spreads, fit.factor, level), level.level, 0.05);
  // Errors 1000 times smaller: kappa 1e-6 times as large, a narrower spread (kappa < 1).
  a.residual = 0.01 * a.deviations[0];
  b.residual = 0.02 * a.deviations[0];
  EXPECT_NEAR(solve::calibrate_operator({a, b}).factor / fit.factor, 1e-6, 1e-12);
}

TEST(OperatorCalibration, recovers_a_known_miscalibration_through_fast_noise) {
  // Error sqrt(c) times a field drawn like the samples' deviations: E/V = c in expectation
  // in every bin; white noise of the field's own size is averaged over ~30 rows per cell.
  at::manual_seed(2);
  const double c = 4.0;
  std::vector<gp::PosteriorResiduals> experiments;
  for (int e = 0; e < 8; ++e) experiments.push_back(synthetic(c, 10000, 16, 1.0));
  // The bins' own noise (a bin holds few independent parts of one smooth draw) reads as
  // disagreement between bins, which the coverage fit meets with a kappa a little off c
  // (3.2 for c = 4 with this seed), within the tolerance.
  const double kappa = solve::calibrate_operator(experiments).factor;
  EXPECT_NEAR(kappa / c, 1.0, 0.25) << kappa;
}

TEST(OperatorCalibration, scales_only_the_spread_that_the_inducing_outputs_make) {
  // Deviations g = a + h, a and h drawn alike and independent, h the part q(u) makes; the
  // error is a draw like a plus sqrt(c) times one like h: V(kappa) = V_a + kappa V_h, and
  // the error's variance V_a + c V_h is met at kappa = c. Scaling all of g instead would
  // give (1 + c) / 2 = 2.5 for c = 4.
  at::manual_seed(7);
  const double c = 4.0;
  std::vector<gp::PosteriorResiduals> experiments;
  for (int e = 0; e < 8; ++e) {
    gp::PosteriorResiduals rows = synthetic(1.0, 10000, 16, 1.0);  // residual: like a
    std::vector<at::Tensor> made;
    for (std::int64_t s = 0; s < rows.deviations.size(0); ++s)
      made.push_back(smooth_field(rows.x, rows.t));
    rows.inducing_deviations = at::stack(made);
    rows.deviations = rows.deviations + rows.inducing_deviations;
    rows.residual = rows.residual + std::sqrt(c) * smooth_field(rows.x, rows.t);
    experiments.push_back(rows);
  }
  const solve::OperatorCalibration fit = solve::calibrate_operator(experiments);
  EXPECT_NEAR(fit.factor / c, 1.0, 0.25) << fit.factor;
  const solve::OperatorBins& bins = fit.experiments[0];
  for (std::size_t k = 0; k < bins.variance.size(); ++k)
    EXPECT_NEAR(bins.fixed_variance[k] + 2.0 * bins.cross_variance[k] + bins.inducing_variance[k],
                bins.variance[k], 1e-12 * bins.variance[k]);
  for (gp::PosteriorResiduals& rows : experiments) rows.inducing_deviations = at::Tensor();
  EXPECT_LT(solve::calibrate_operator(experiments).factor, 0.8 * c);
}

TEST(OperatorCalibration, subtracts_the_targets_own_error_seen_in_sample) {
  // The left-out residual is sqrt(c) times a draw like the samples' plus a slow error l of
  // the targets, three times the operator's in sd; the in-sample residual is l plus a small
  // error of the posterior that saw the rows. Without the in-sample term kappa would be
  // about c + 9; with it, c.
  at::manual_seed(5);
  const double c = 4.0;
  std::vector<gp::PosteriorResiduals> experiments;
  for (int e = 0; e < 8; ++e) {
    gp::PosteriorResiduals rows = synthetic(c, 10000, 16, 1.0);
    const at::Tensor leaf_error = 3.0 * smooth_field(rows.x, rows.t);
    rows.residual += leaf_error;
    rows.in_sample = leaf_error + 0.1 * smooth_field(rows.x, rows.t);
    experiments.push_back(rows);
  }
  const double kappa = solve::calibrate_operator(experiments).factor;
  EXPECT_NEAR(kappa / c, 1.0, 0.25) << kappa;
  for (gp::PosteriorResiduals& rows : experiments) rows.in_sample = at::Tensor();
  EXPECT_GT(solve::calibrate_operator(experiments).factor, 2.0 * c);
}

TEST(OperatorCalibration, needs_two_experiments_and_rows_inside_the_window) {
  at::manual_seed(3);
  const gp::PosteriorResiduals one = synthetic(1.0, 100, 2, 0.0);
  try {
    solve::calibrate_operator({one});
    FAIL() << "accepted one experiment";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("2 training experiments (got 1)"));
  }
  gp::PosteriorResiduals outside = one;
  outside.x_max = 0.0;
  EXPECT_THROW(solve::operator_bins(outside), std::invalid_argument);
}

TEST(OperatorCalibration, file_records_the_method_and_kappa_and_reads_back) {
  at::manual_seed(4);
  const solve::OperatorCalibration fit =
      solve::calibrate_operator({synthetic(9.0, 3000, 8, 0.0), synthetic(9.0, 3000, 8, 0.0)});
  const std::string path =
      (std::filesystem::temp_directory_path() / "bhpm_operator_discrepancy.json").string();
  solve::write_discrepancy_file(path, solve::operator_discrepancy(fit, 1, 1e-4), "seed = 1\n");
  const solve::DiscrepancyFile file = solve::read_discrepancy_file(path);
  EXPECT_EQ(file.method, "operator");
  EXPECT_EQ(file.inflation, fit.factor);
  EXPECT_GT(file.inflation, 1.0);
  EXPECT_EQ(file.variance, 0.0);
  EXPECT_EQ(file.order, 1);
  EXPECT_EQ(file.config, "seed = 1\n");
  std::ifstream text(path);
  const std::string json((std::istreambuf_iterator<char>(text)), std::istreambuf_iterator<char>());
  EXPECT_THAT(json, HasSubstr("\"method\": \"operator\""));
  EXPECT_THAT(json, HasSubstr("\"space_cells\": 64"));
  std::filesystem::remove(path);
}
