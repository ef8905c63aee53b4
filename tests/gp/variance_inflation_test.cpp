// fit_variance_inflation: the maximum-likelihood factor kappa of r ~ N(0, kappa s^2 + n),
// against its closed form (n = 0), its stationarity, its lower bound, and a Monte Carlo GP
// whose prior and noise are both c times what the model believes: then the posterior mean
// is the model's and the error's variance exactly c times the model's posterior variance.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gp/variance_inflation.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);

/// exp(-(a - b)^2 / (2 l^2)) for a [N], b [M]: [N, M].
at::Tensor rbf(const at::Tensor& a, const at::Tensor& b, double lengthscale) {
  return at::exp(-(a.unsqueeze(1) - b.unsqueeze(0)).square() / (2.0 * lengthscale * lengthscale));
}

}  // namespace

TEST(VarianceInflation, without_noise_is_the_mean_squared_standardised_residual) {
  at::manual_seed(1);
  const at::Tensor s2 = at::rand({500}, kReal) + 0.1;
  const at::Tensor r = 2.5 * at::randn({500}, kReal) * s2.sqrt();
  const double expected = (r.square() / s2).mean().item<double>();
  const VarianceInflationFit fit = fit_variance_inflation({r, s2, at::zeros_like(s2)});
  EXPECT_NEAR(fit.factor / expected, 1.0, 1e-6);  // a flat maximum: sqrt(eps)
  EXPECT_EQ(fit.points, 500);
  EXPECT_GT(fit.log_likelihood, fit.plain_log_likelihood);
}

TEST(VarianceInflation, with_noise_the_fit_is_a_stationary_point_of_the_likelihood) {
  at::manual_seed(2);
  const at::Tensor s2 = at::rand({400}, kReal) + 0.05;
  const at::Tensor n = 0.5 * at::rand({400}, kReal);
  const at::Tensor r = at::randn({400}, kReal) * (6.0 * s2 + n).sqrt();
  const ScoredResiduals scored{r, s2, n};
  const double kappa = fit_variance_inflation(scored).factor;
  ASSERT_GT(kappa, 2.0);
  const double h = 1e-4;
  const double slope = (inflation_log_likelihood(scored, kappa * (1 + h)) -
                        inflation_log_likelihood(scored, kappa * (1 - h))) /
                       (2 * h * kappa);
  const double curvature_scale = std::abs(inflation_log_likelihood(scored, 2 * kappa) -
                                          inflation_log_likelihood(scored, kappa)) /
                                 kappa;
  EXPECT_LT(std::abs(slope), 1e-6 * curvature_scale);
  EXPECT_GT(inflation_log_likelihood(scored, kappa), inflation_log_likelihood(scored, 1.1 * kappa));
  EXPECT_GT(inflation_log_likelihood(scored, kappa), inflation_log_likelihood(scored, 0.9 * kappa));
}

TEST(VarianceInflation, never_narrows_the_posterior) {
  at::manual_seed(3);
  const at::Tensor s2 = at::ones({300}, kReal);
  const at::Tensor r = 0.3 * at::randn({300}, kReal);  // kappa would be 0.09
  EXPECT_EQ(fit_variance_inflation({r, s2, at::zeros_like(s2)}).factor, 1.0);
  EXPECT_NEAR(fit_variance_inflation({r, s2, at::zeros_like(s2)}, 0.01).factor,
              r.square().mean().item<double>(), 1e-6);
}

TEST(VarianceInflation, recovers_a_gp_whose_prior_and_noise_are_c_times_the_model_s) {
  // Model: f ~ GP(0, k), y = f + N(0, sigma^2). Truth: both c times larger. The posterior
  // mean is the same in both, and f(x*) - m(x*) ~ N(0, c s^2(x*)); the test targets carry
  // known noise n, so r ~ N(0, c s^2 + n).
  const double c = 4.0, sigma2 = 0.01, n = 0.002, lengthscale = 0.7;
  at::manual_seed(4);
  const at::Tensor x = at::linspace(-3.0, 3.0, 12, kReal);
  const at::Tensor x_star = at::linspace(-4.5, 4.5, 10, kReal);
  const at::Tensor all = at::cat({x, x_star});
  const at::Tensor k_xx = rbf(x, x, lengthscale) + sigma2 * at::eye(12, kReal);
  const at::Tensor k_sx = rbf(x_star, x, lengthscale);
  const at::Tensor weights = at::linalg_solve(k_xx, k_sx.t());  // [12, 10]
  const at::Tensor s2 = (1.0 - (k_sx * weights.t()).sum(1)).clamp_min(0.0);
  const at::Tensor joint = c * (rbf(all, all, lengthscale) + 1e-10 * at::eye(22, kReal));
  const at::Tensor lower = at::linalg_cholesky(joint);
  const int draws = 400;
  std::vector<at::Tensor> residuals;
  for (int d = 0; d < draws; ++d) {
    const at::Tensor f = lower.matmul(at::randn({22}, kReal));
    const at::Tensor y = f.slice(0, 0, 12) + std::sqrt(c * sigma2) * at::randn({12}, kReal);
    const at::Tensor mean = weights.t().matmul(y);
    const at::Tensor target = f.slice(0, 12) + std::sqrt(n) * at::randn({10}, kReal);
    residuals.push_back(target - mean);
  }
  const at::Tensor r = at::cat(residuals);
  const at::Tensor function_variance = s2.repeat({draws});
  const ScoredResiduals scored{r, function_variance, at::full_like(r, n)};
  // 4000 residuals, 10 per draw: the estimate's relative sd is about sqrt(2 / 4000) = 2 %.
  EXPECT_NEAR(fit_variance_inflation(scored).factor / c, 1.0, 0.08);
  // Calibrated, the central 95 % interval holds about 95 % of the residuals; plain, fewer.
  EXPECT_NEAR(inflated_coverage(scored, fit_variance_inflation(scored).factor, 0.95), 0.95, 0.02);
  EXPECT_LT(inflated_coverage(scored, 1.0, 0.95), 0.85);
}

TEST(VarianceInflation, coverage_counts_residuals_inside_the_central_interval) {
  const at::Tensor s2 = at::ones({4}, kReal);
  // 1.96 sd is the 95 % half-width: 1.9 inside, 2.0 outside.
  const at::Tensor r = at::tensor({0.1, -1.9, 2.0, -3.0}, kReal);
  EXPECT_DOUBLE_EQ(inflated_coverage({r, s2, at::zeros_like(s2)}, 1.0, 0.95), 0.5);
  EXPECT_DOUBLE_EQ(inflated_coverage({r, s2, at::zeros_like(s2)}, 4.0, 0.95), 1.0);
}

TEST(VarianceInflation, bad_residuals_are_refused_by_name) {
  const at::Tensor ones = at::ones({3}, kReal);
  auto refusal = [](const ScoredResiduals& scored) {
    try {
      fit_variance_inflation(scored);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(refusal({ones, at::ones({2}, kReal), ones}), HasSubstr("function_variance"));
  EXPECT_THAT(refusal({ones, -ones, ones}), HasSubstr("function_variance must be finite and >= 0"));
  EXPECT_THAT(refusal({ones * NAN, ones, ones}), HasSubstr("residual must be finite"));
  EXPECT_THAT(refusal({ones, at::zeros_like(ones), at::zeros_like(ones)}), HasSubstr("> 0"));
  EXPECT_THROW(pooled({}), std::invalid_argument);
}
