// GaussianLikelihood: variance through softplus, log density and its closed-form
// expectation under a Gaussian f.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gp/gaussian_likelihood.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;

/// int N(f; mean, variance) log N(y | f, sigma2) df by the trapezoid rule on mean +- 12 sd.
double quadrature(double y, double mean, double variance, double sigma2) {
  const int n = 200001;
  const double sd = std::sqrt(variance), a = mean - 12.0 * sd, h = 24.0 * sd / (n - 1);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double f = a + i * h;
    const double density =
        std::exp(-0.5 * (f - mean) * (f - mean) / variance) / std::sqrt(2.0 * M_PI * variance);
    const double log_lik = -0.5 * (std::log(2.0 * M_PI * sigma2) + (y - f) * (y - f) / sigma2);
    sum += (i == 0 || i == n - 1 ? 0.5 : 1.0) * density * log_lik;
  }
  return sum * h;
}

}  // namespace

TEST(GaussianLikelihood, variance_round_trips_through_softplus_above_the_floor) {
  GaussianLikelihoodOptions options;
  options.variance = 0.3;
  options.variance_floor = 1e-6;
  GaussianLikelihood likelihood(options);
  EXPECT_NEAR(likelihood->variance().item<double>(), 0.3, 1e-15);
  const at::Tensor raw = likelihood->named_parameters()["raw_variance"];
  EXPECT_TRUE(raw.requires_grad());
  EXPECT_NEAR((1e-6 + at::softplus(raw)).item<double>(), 0.3, 1e-15);
  likelihood->set_variance(2e-6);
  EXPECT_NEAR(likelihood->variance().item<double>(), 2e-6, 1e-18);
  {
    const at::NoGradGuard no_grad;
    raw.fill_(-800.0);  // softplus underflows to 0: the floor remains
  }
  EXPECT_EQ(likelihood->variance().item<double>(), 1e-6);
}

TEST(GaussianLikelihood, log_prob_is_the_normal_log_density) {
  GaussianLikelihood likelihood(GaussianLikelihoodOptions{0.5, 0.0});
  const at::Tensor y = at::tensor({0.3, -1.0}, kReal), f = at::tensor({0.1, 1.0}, kReal);
  const at::Tensor lp = likelihood->log_prob(y, f);
  for (int i = 0; i < 2; ++i) {
    const double r = y[i].item<double>() - f[i].item<double>();
    EXPECT_NEAR(lp[i].item<double>(), -0.5 * std::log(2 * M_PI * 0.5) - r * r / (2 * 0.5), 1e-15);
  }
}

TEST(GaussianLikelihood, expected_log_prob_matches_numerical_integration) {
  GaussianLikelihood likelihood(GaussianLikelihoodOptions{0.2, 0.0});
  const at::Tensor y = at::tensor({0.7, -0.4, 2.0}, kReal);
  const at::Tensor mean = at::tensor({0.2, -0.5, 0.0}, kReal);
  const at::Tensor variance = at::tensor({0.05, 1.3, 0.4}, kReal);
  const at::Tensor expected = likelihood->expected_log_prob(y, mean, variance);
  ASSERT_EQ(expected.sizes(), (std::vector<std::int64_t>{3}));
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(
        expected[i].item<double>(),
        quadrature(y[i].item<double>(), mean[i].item<double>(), variance[i].item<double>(), 0.2),
        1e-8);
}

TEST(GaussianLikelihood, options_and_inputs_are_checked_by_name) {
  try {
    GaussianLikelihood(GaussianLikelihoodOptions{1e-9, 1e-8});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("gaussian likelihood: variance must be finite and > "
                                    "variance_floor"));
  }
  EXPECT_THROW(GaussianLikelihood(GaussianLikelihoodOptions{1.0, -1.0}), std::invalid_argument);
  GaussianLikelihood likelihood;
  EXPECT_THROW(likelihood->set_variance(0.0), std::invalid_argument);
  const at::Tensor y = at::zeros({3}, kReal);
  EXPECT_THROW(likelihood->log_prob(y, at::zeros({2}, kReal)), std::invalid_argument);
  EXPECT_THROW(likelihood->expected_log_prob(y, y, at::zeros({4}, kReal)), std::invalid_argument);
}
