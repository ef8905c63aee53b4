// ExactGp: marginal likelihood (paper Eq. 3) and posterior against dense linear algebra
// with an explicit inverse and log-determinant; gradients against finite differences.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gp/exact_gp.h"
#include "gp/finite_difference.h"
#include "gp/gp_test_problem.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using namespace bhpm::gp::test;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::max_abs;

struct DenseReference {
  at::Tensor inverse;  // (K + sigma^2 I)^{-1}
  double log_det;
  at::Tensor residual;  // y - mu(X)
};

DenseReference dense_reference(const at::Tensor& x, const at::Tensor& y) {
  const at::Tensor k = dense_kernel(x, x) + kNoiseVariance * at::eye(x.size(0), kReal);
  return {at::inverse(k), at::logdet(k).item<double>(), y - dense_mean(x)};
}

}  // namespace

TEST(ExactGp, log_marginal_likelihood_matches_dense_formula) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(15, 1), y = targets(x, 2);
  const ExactGp gp = make_exact_gp(parts, x, y);
  const DenseReference d = dense_reference(x, y);
  const double expected = -0.5 * at::dot(d.residual, at::mv(d.inverse, d.residual)).item<double>() -
                          0.5 * d.log_det - 0.5 * 15.0 * std::log(2.0 * M_PI);
  EXPECT_NEAR(gp->log_marginal_likelihood().item<double>(), expected, 1e-10 * std::abs(expected));
  EXPECT_EQ(gp->factorize().relative_jitter, 0.0);
}

TEST(ExactGp, posterior_mean_and_covariance_match_dense_formulas) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(15, 1), y = targets(x, 2), x_star = inputs(7, 3);
  const ExactGp gp = make_exact_gp(parts, x, y);
  const DenseReference d = dense_reference(x, y);
  const at::Tensor k_star = dense_kernel(x_star, x);
  const at::Tensor mean = dense_mean(x_star) + at::mv(at::mm(k_star, d.inverse), d.residual);
  const at::Tensor cov =
      dense_kernel(x_star, x_star) - at::mm(at::mm(k_star, d.inverse), k_star.t());
  const MultivariateNormal posterior = gp->posterior(x_star);
  ASSERT_EQ(posterior.mean.sizes(), (std::vector<std::int64_t>{7}));
  ASSERT_EQ(posterior.covariance.sizes(), (std::vector<std::int64_t>{7, 7}));
  EXPECT_LT(max_abs(posterior.mean - mean), 1e-11);
  EXPECT_LT(max_abs(posterior.covariance - cov), 1e-11);
  const MarginalNormal marginals = gp->marginals(x_star);
  EXPECT_LT(max_abs(marginals.mean - mean), 1e-11);
  EXPECT_LT(max_abs(marginals.variance - cov.diagonal()), 1e-11);
}

TEST(ExactGp, posterior_at_training_inputs_shrinks_towards_the_data) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(15, 1), y = targets(x, 2);
  const ExactGp gp = make_exact_gp(parts, x, y);
  const MarginalNormal at_data = gp->marginals(x);
  EXPECT_LT(at_data.variance.max().item<double>(), kNoiseVariance);  // below the noise
  EXPECT_LT(max_abs(at_data.mean - y), 3.0 * std::sqrt(kNoiseVariance));
  const MarginalNormal far = gp->marginals(at::full({1, 2}, 50.0, kReal));
  EXPECT_NEAR(far.variance.item<double>(), kSignalVariance, 1e-12);  // back to the prior
  EXPECT_NEAR(far.mean.item<double>(), 50.0 * (kWeight[0] + kWeight[1]) + kBias, 1e-12);
}

TEST(ExactGp, log_marginal_likelihood_gradients_match_finite_differences) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(12, 4), y = targets(x, 5);
  ExactGp gp = make_exact_gp(parts, x, y);
  ASSERT_EQ(gp->parameters().size(), 5u);  // weight, bias, 2 kernel, 1 likelihood
  expect_gradients_match(*gp, [&] { return gp->log_marginal_likelihood(); });
}

TEST(ExactGp, set_train_data_replaces_the_data) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(10, 1), y = targets(x, 2);
  ExactGp gp = make_exact_gp(parts, x.narrow(0, 0, 5), y.narrow(0, 0, 5));
  gp->set_train_data(x, y);
  const ExactGp fresh = make_exact_gp(parts, x, y);
  EXPECT_EQ(gp->train_inputs().size(0), 10);
  EXPECT_NEAR(gp->log_marginal_likelihood().item<double>(),
              fresh->log_marginal_likelihood().item<double>(), 1e-12);
}

TEST(ExactGp, arguments_are_checked_by_name) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(6, 1), y = targets(x, 2);
  try {
    make_exact_gp(parts, x, y.narrow(0, 0, 5));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("exact GP: training targets y must be a double tensor of "
                                    "shape [6]"));
  }
  EXPECT_THROW(ExactGp(nullptr, parts.kernel.ptr(), parts.likelihood.ptr(), x, y),
               std::invalid_argument);
  EXPECT_THROW(ExactGp(LinearMean(LinearMeanOptions{3}).ptr(), parts.kernel.ptr(),
                       parts.likelihood.ptr(), x, y),
               std::invalid_argument);
  const ExactGp gp = make_exact_gp(parts, x, y);
  EXPECT_THROW(gp->posterior(at::zeros({3, 3}, kReal)), std::invalid_argument);
}
