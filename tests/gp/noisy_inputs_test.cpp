// Noisy inputs (gp/noisy_inputs.h) and the heteroscedastic ELBO: the first-order variance
// against Monte Carlo over the inputs; the posterior mean's gradient against finite
// differences; the ELBO with per-point noise against Titsias' collapsed bound at its
// closed-form optimum (SparseVariationalGpImpl::set_optimal_variational_distribution), where
// its gradient in q's parameters vanishes; and a synthetic errors-in-variables regression whose
// corrected intervals cover at the nominal rate while the plain ones do not.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>
#include <torch/autograd.h>

#include <cmath>
#include <cstdio>

#include "gp/gp_test_problem.h"
#include "gp/noisy_inputs.h"
#include "gp/sparse_variational_gp.h"

using namespace bhpm::gp;
using namespace bhpm::gp::test;

namespace {

at::Tensor normals(std::int64_t rows, std::int64_t columns, std::uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::normal(0.0, 1.0, {rows, columns}, generator, at::kDouble);
}

/// A random symmetric positive definite [n, n] matrix of scale `scale`^2.
at::Tensor random_covariance(std::int64_t n, double scale, std::uint64_t seed) {
  const at::Tensor factor = normals(n, n, seed) * scale / std::sqrt(static_cast<double>(n));
  return at::mm(factor, factor.t()) + 0.1 * scale * scale * at::eye(n, kReal);
}

/// Draws [count, n] from N(0, covariance).
at::Tensor correlated_draws(const at::Tensor& covariance, std::int64_t count, std::uint64_t seed) {
  return at::mm(normals(count, covariance.size(0), seed), at::linalg_cholesky(covariance).t());
}

/// log N(y - mu(x) | 0, Q + diag(noise)) - 1/2 sum_i (k_ii - Q_ii) / noise_i with
/// Q = K_xz K_zz^{-1} K_zx: the ELBO maximised over q(u) (Titsias 2009), dense.
double collapsed_bound(const SparseVariationalGpImpl& gp, const at::Tensor& x, const at::Tensor& y,
                       const at::Tensor& noise) {
  const at::Tensor z = gp.inducing_inputs();
  const at::Tensor k_zx = gp.kernel()->matrix(z, x);
  const at::Tensor q = at::mm(k_zx.t(), at::linalg_solve(gp.kernel()->matrix(z, z), k_zx));
  const at::Tensor covariance = q + at::diag(noise);
  const at::Tensor r = y - gp.mean()->forward(x);
  const double n = static_cast<double>(x.size(0));
  const double log_density =
      -0.5 * (n * std::log(2.0 * M_PI) + at::logdet(covariance).item<double>() +
              at::dot(r, at::linalg_solve(covariance, r)).item<double>());
  const at::Tensor trace = (gp.kernel()->diagonal(x) - at::diagonal(q)) / noise;
  return log_density - 0.5 * trace.sum().item<double>();
}

double fraction_inside(const at::Tensor& truth, const at::Tensor& mean,
                       const at::Tensor& variance) {
  return ((truth - mean).abs() <= 1.96 * variance.sqrt()).to(at::kDouble).mean().item<double>();
}

}  // namespace

TEST(NoisyInputs, first_order_variance_is_exact_for_a_linear_function) {
  // f(v) = c . v: y - f(v) = e_y - c . e_v exactly, of variance a^T C a, a = (-c, 1).
  const at::Tensor c = at::tensor({0.7, -1.3, 0.4}, kReal);
  const at::Tensor covariance = random_covariance(4, 0.2, 1);  // (v, y) errors, correlated
  const at::Tensor errors = correlated_draws(covariance, 400000, 2);
  const at::Tensor residual = errors.select(1, 3) - at::mv(errors.narrow(1, 0, 3), c);
  const double predicted =
      first_order_input_noise_variance(c.unsqueeze(0), covariance.unsqueeze(0)).item<double>();
  // The variance of 4e5 Gaussian draws has relative standard error sqrt(2 / 4e5) = 0.22 %.
  EXPECT_NEAR(residual.var().item<double>(), predicted, 0.012 * predicted);
}

TEST(NoisyInputs, first_order_variance_matches_monte_carlo_for_a_smooth_function) {
  // f(v) = sin(v_0) + v_1^2 / 2 at three inputs; errors of scale 0.01, so the neglected
  // second-order terms change the variance by O(0.01) relative.
  const at::Tensor v = at::tensor({0.3, -1.2, 1.4, 0.5, -0.8, 2.0}, kReal).view({3, 2});
  auto f = [](const at::Tensor& x) {
    return at::sin(x.select(1, 0)) + 0.5 * x.select(1, 1).square();
  };
  const at::Tensor gradient = at::stack({at::cos(v.select(1, 0)), v.select(1, 1)}, 1);
  const at::Tensor covariance = random_covariance(3, 0.01, 3);
  const at::Tensor predicted =
      first_order_input_noise_variance(gradient, covariance.expand({3, 3, 3}));
  for (std::int64_t i = 0; i < 3; ++i) {
    const at::Tensor errors = correlated_draws(covariance, 200000, 10 + i);
    const at::Tensor observed = v[i].unsqueeze(0) + errors.narrow(1, 0, 2);
    const at::Tensor y = f(v[i].unsqueeze(0)) + errors.select(1, 2);
    const double monte_carlo = (y - f(observed)).var().item<double>();
    EXPECT_NEAR(monte_carlo, predicted[i].item<double>(), 0.03 * monte_carlo) << "input " << i;
  }
}

TEST(NoisyInputs, posterior_mean_gradient_matches_finite_differences) {
  const GpParts parts = make_parts();
  SparseVariationalGp gp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(),
                         inputs(7, 1));
  const at::Tensor x = inputs(20, 2), y = targets(x, 3);
  gp->set_optimal_variational_distribution(x, y);
  const at::Tensor points = inputs(5, 4);
  const at::Tensor gradient = posterior_mean_gradient(*gp, points);
  ASSERT_EQ(gradient.sizes(), points.sizes());
  const double step = 1e-6;
  for (int d = 0; d < 2; ++d) {
    at::Tensor shift = at::zeros_like(points);
    shift.select(1, d).fill_(step);
    const at::Tensor difference =
        (gp->marginals(points + shift).mean - gp->marginals(points - shift).mean) / (2 * step);
    EXPECT_LT((difference - gradient.select(1, d)).abs().max().item<double>(), 1e-7);
  }
}

TEST(NoisyInputs, heteroscedastic_elbo_equals_the_collapsed_bound_at_its_optimum) {
  const GpParts parts = make_parts();
  SparseVariationalGp gp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(),
                         inputs(8, 5));
  const at::Tensor x = inputs(30, 6), y = targets(x, 7);
  const at::Tensor extra =
      0.05 * at::rand({30}, at::make_generator<at::CPUGeneratorImpl>(8), kReal);
  const at::Tensor noise = kNoiseVariance + extra;
  gp->set_optimal_variational_distribution(x, y, extra);
  const ElboTerms terms = gp->elbo_terms(x, y, 30, extra);
  const double elbo = terms.elbo.item<double>();
  EXPECT_NEAR(elbo, collapsed_bound(*gp, x, y, noise), 1e-8 * std::abs(elbo));
  // A stationary point in q's parameters: the ELBO's gradient there vanishes.
  const auto gradients =
      torch::autograd::grad({terms.elbo}, {gp->named_parameters()["variational_mean"],
                                           gp->named_parameters()["variational_cholesky_raw"]});
  EXPECT_LT(gradients[0].abs().max().item<double>(), 1e-6 * std::abs(elbo));
  EXPECT_LT(gradients[1].tril().abs().max().item<double>(), 1e-6 * std::abs(elbo));
  // The plain ELBO at this q is a different number; the plain optimum is lower under the
  // heteroscedastic likelihood.
  EXPECT_GT(std::abs(gp->elbo(x, y, 30).item<double>() - elbo), 1e-3);
  gp->set_optimal_variational_distribution(x, y);
  EXPECT_LT(gp->elbo_terms(x, y, 30, extra).elbo.item<double>(), elbo - 1e-6);
}

TEST(NoisyInputs, corrected_intervals_cover_errors_in_variables_at_the_nominal_rate) {
  // y = sin(2 x) + e_y observed at x + e_x (sd 0.05 and 0.02), 400 points on [-2, 2], the
  // generating RBF (lengthscale 0.5, s^2 = 1) and sigma_y^2 fixed, q(u) at its optimum.
  // NIGP: the likelihood variance of point i is sigma_y^2 + m'(x_i)^2 sigma_x^2, m' from
  // the previous fit, three times.
  const double sigma_x = 0.05, sigma_y = 0.02;
  auto make = [&] {
    LinearMean mean(LinearMeanOptions{1});
    mean->set_weight(at::zeros({1}, kReal));
    mean->set_bias(0.0);
    return SparseVariationalGp(
        mean.ptr(), RbfKernel(RbfKernelOptions{1, 0.5, 1.0}).ptr(),
        GaussianLikelihood(GaussianLikelihoodOptions{sigma_y * sigma_y, 0.0}).ptr(),
        at::linspace(-2.2, 2.2, 16, kReal).unsqueeze(1));
  };
  auto generator = at::make_generator<at::CPUGeneratorImpl>(11);
  auto draw = [&](std::int64_t n) {
    const at::Tensor x = at::empty({n, 1}, kReal).uniform_(-2.0, 2.0, generator);
    const at::Tensor observed = x + sigma_x * at::normal(0.0, 1.0, {n, 1}, generator, at::kDouble);
    const at::Tensor y =
        at::sin(2.0 * x.squeeze(1)) + sigma_y * at::normal(0.0, 1.0, {n}, generator, at::kDouble);
    return std::make_pair(observed, y);
  };
  const auto [x, y] = draw(400);
  const auto [x_new, y_new] = draw(2000);
  const at::Tensor x_star = at::linspace(-1.8, 1.8, 200, kReal).unsqueeze(1);
  const at::Tensor f_star = at::sin(2.0 * x_star.squeeze(1));
  const at::Tensor input_covariance =
      at::diag(at::tensor({sigma_x * sigma_x, 0.0}, kReal)).expand({400, 2, 2});
  const at::Tensor new_covariance = input_covariance.narrow(0, 0, 1).expand({2000, 2, 2});
  const double noise = sigma_y * sigma_y;

  SparseVariationalGp plain = make();
  plain->set_optimal_variational_distribution(x, y);
  SparseVariationalGp corrected = make();
  corrected->set_optimal_variational_distribution(x, y);
  for (int round = 0; round < 3; ++round) {
    const at::Tensor extra =
        first_order_input_noise_variance(posterior_mean_gradient(*corrected, x), input_covariance);
    corrected->set_optimal_variational_distribution(x, y, extra);
  }

  auto coverage = [&](const SparseVariationalGp& gp, bool correct) {
    const MarginalNormal f = gp->marginals(x_star);
    const MarginalNormal q = gp->marginals(x_new);
    at::Tensor variance = q.variance + noise;
    if (correct)
      variance = variance + first_order_input_noise_variance(posterior_mean_gradient(*gp, x_new),
                                                             new_covariance);
    return std::make_pair(fraction_inside(f_star, f.mean.detach(), f.variance.detach()),
                          fraction_inside(y_new, q.mean.detach(), variance.detach()));
  };
  const auto [plain_f, plain_y] = coverage(plain, false);
  const auto [corrected_f, corrected_y] = coverage(corrected, true);
  std::printf(
      "95 %% coverage of f(x*): plain %.3f, corrected %.3f; of new noisy pairs: plain "
      "%.3f, corrected %.3f\n",
      plain_f, corrected_f, plain_y, corrected_y);
  // 2000 independent pairs: the binomial standard error at 0.95 is 0.005.
  EXPECT_GT(corrected_y, 0.93);
  EXPECT_LT(corrected_y, 0.97);
  EXPECT_LT(plain_y, 0.8);
  EXPECT_GT(corrected_f, 0.9);
  EXPECT_LT(plain_f, 0.7);
}
