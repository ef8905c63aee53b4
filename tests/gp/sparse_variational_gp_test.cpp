// SparseVariationalGp: with Z = X and q(u) = the exact posterior it reproduces the exact
// GP (ELBO = log marginal likelihood, same predictions); KL against an explicit
// inverse and determinant; gradients against finite differences; minibatch scaling.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "gp/finite_difference.h"
#include "gp/gp_test_problem.h"
#include "gp/sparse_variational_gp.h"
#include "support/tensors.h"
#include "util/random.h"

using namespace bhpm::gp;
using namespace bhpm::gp::test;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::max_abs;

SparseVariationalGp make_sparse(const GpParts& parts, const at::Tensor& z) {
  return SparseVariationalGp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(), z);
}

/// A random q(v): mean [M] and a lower factor with diagonal in [0.3, 1.3].
void set_random_q(SparseVariationalGpImpl& gp, std::uint64_t seed) {
  at::manual_seed(seed);
  const std::int64_t m = gp.inducing_points();
  const at::Tensor lower =
      0.3 * at::randn({m, m}, kReal).tril(-1) + at::diag(0.3 + at::rand({m}, kReal));
  gp.set_variational_distribution(at::randn({m}, kReal), lower);
}

/// KL(N(mu, Sigma) || N(mu0, K)) with an explicit inverse and log-determinants.
double dense_kl(const at::Tensor& mu, const at::Tensor& sigma, const at::Tensor& mu0,
                const at::Tensor& k) {
  const at::Tensor k_inverse = at::inverse(k);
  const at::Tensor d = mu - mu0;
  return 0.5 * (at::trace(at::mm(k_inverse, sigma)).item<double>() +
                at::dot(d, at::mv(k_inverse, d)).item<double>() - static_cast<double>(mu.size(0)) +
                at::logdet(k).item<double>() - at::logdet(sigma).item<double>());
}

}  // namespace

TEST(SparseVariationalGp, starts_at_the_prior_with_zero_kl) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse(parts, inputs(9, 1));
  EXPECT_EQ(gp->inducing_points(), 9);
  EXPECT_LT(std::abs(gp->kl_divergence().item<double>()), 1e-14);
  const MultivariateNormal q = gp->inducing_distribution();
  EXPECT_LT(max_abs(q.mean - dense_mean(gp->inducing_inputs())), 1e-14);
  EXPECT_LT(max_abs(q.covariance - dense_kernel(gp->inducing_inputs(), gp->inducing_inputs())),
            1e-13);
}

TEST(SparseVariationalGp, kl_matches_explicit_inverse_and_determinant) {
  const GpParts parts = make_parts();
  const at::Tensor z = inputs(8, 1);
  SparseVariationalGp gp = make_sparse(parts, z);
  set_random_q(*gp, 3);
  // q(u) rebuilt here from q(v) = N(m, L_S L_S^T) and K_zz's factor, u = mu(Z) + L_zz v.
  const at::Tensor k_zz = dense_kernel(z, z);
  const at::Tensor l_zz = at::linalg_cholesky(k_zz);
  const at::Tensor l_s = gp->variational_cholesky().detach();
  const at::Tensor mu = dense_mean(z) + at::mv(l_zz, gp->variational_mean().detach());
  const at::Tensor sigma = at::mm(at::mm(l_zz, at::mm(l_s, l_s.t())), l_zz.t());
  const double expected = dense_kl(mu, sigma, dense_mean(z), k_zz);
  EXPECT_GT(expected, 0.1);
  EXPECT_NEAR(gp->kl_divergence().item<double>(), expected, 1e-9 * expected);
  const MultivariateNormal q = gp->inducing_distribution();
  EXPECT_LT(max_abs(q.mean - mu), 1e-12);
  EXPECT_LT(max_abs(q.covariance - sigma), 1e-12);
}

TEST(SparseVariationalGp, exact_posterior_at_training_inputs_gives_the_marginal_likelihood) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(20, 1), y = targets(x, 2);
  const ExactGp exact = make_exact_gp(parts, x, y);
  SparseVariationalGp sparse = make_sparse(parts, x);
  sparse->initialize_from(*exact);
  const double lml = exact->log_marginal_likelihood().item<double>();
  const ElboTerms terms = sparse->elbo_terms(x, y, 20);
  EXPECT_NEAR(terms.elbo.item<double>(), lml, 1e-8);
  EXPECT_GT(terms.kl.item<double>(), 0.0);
  EXPECT_NEAR(terms.elbo.item<double>(), (terms.expected_log_likelihood - terms.kl).item<double>(),
              1e-12);
  // Any other q(u) gives a strictly lower bound.
  set_random_q(*sparse, 4);
  EXPECT_LT(sparse->elbo(x, y, 20).item<double>(), lml - 1e-3);
}

TEST(SparseVariationalGp, initialisation_reproduces_the_exact_joint_posterior_at_z) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(30, 1), y = targets(x, 2), z = inputs(10, 7);
  const ExactGp exact = make_exact_gp(parts, x, y);
  SparseVariationalGp sparse = make_sparse(parts, z);
  sparse->initialize_from(*exact);
  const MultivariateNormal expected = exact->posterior(z);
  const MultivariateNormal q = sparse->inducing_distribution();
  EXPECT_LT(max_abs(q.mean - expected.mean), 1e-10);
  EXPECT_LT(max_abs(q.covariance - expected.covariance), 1e-10);
}

TEST(SparseVariationalGp, predictions_with_exact_posterior_at_training_inputs_match_exact_gp) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(20, 1), y = targets(x, 2), x_star = inputs(9, 3);
  const ExactGp exact = make_exact_gp(parts, x, y);
  SparseVariationalGp sparse = make_sparse(parts, x);
  sparse->initialize_from(*exact);
  const MarginalNormal expected = exact->marginals(x_star);
  const MarginalNormal q = sparse->marginals(x_star);
  ASSERT_EQ(q.mean.sizes(), (std::vector<std::int64_t>{9}));
  EXPECT_LT(max_abs(q.mean - expected.mean), 1e-9);
  EXPECT_LT(max_abs(q.variance - expected.variance), 1e-9);
}

TEST(SparseVariationalGp, initialize_from_copies_hyperparameters_into_separate_parts) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(20, 1), y = targets(x, 2);
  const ExactGp exact = make_exact_gp(parts, x, y);
  SparseVariationalGp sparse(LinearMean(LinearMeanOptions{2}).ptr(),
                             RbfKernel(RbfKernelOptions{2, 3.0, 0.2}).ptr(),
                             GaussianLikelihood(GaussianLikelihoodOptions{0.7, 0.0}).ptr(), x);
  sparse->initialize_from(*exact);
  EXPECT_NE(sparse->kernel().get(), exact->kernel().get());
  EXPECT_NEAR(sparse->likelihood()->variance().item<double>(), kNoiseVariance, 1e-15);
  EXPECT_NEAR(sparse->elbo(x, y, 20).item<double>(),
              exact->log_marginal_likelihood().item<double>(), 1e-8);
  SparseVariationalGp mismatched(LinearMean(LinearMeanOptions{2}).ptr(),
                                 RbfKernel(RbfKernelOptions{2, 1.0, 1.0}).ptr(),
                                 GaussianLikelihood().ptr(), x);
  const ExactGp other_kernel(parts.mean.ptr(), RbfKernel(RbfKernelOptions{2, 1.0, 1.0}).ptr(),
                             parts.likelihood.ptr(), x, y);
  other_kernel->kernel()->register_parameter("extra", at::zeros({1}, kReal));
  try {
    mismatched->initialize_from(*other_kernel);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("the exact GP's kernel has 3 parameters, this one 2"));
  }
}

TEST(SparseVariationalGp, minibatch_elbo_is_scaled_by_n_over_b) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(24, 1), y = targets(x, 2);
  SparseVariationalGp gp = make_sparse(parts, inputs(6, 8));
  set_random_q(*gp, 5);
  const double kl = gp->kl_divergence().item<double>();
  const double full = gp->elbo(x, y, 24).item<double>();
  const double first = gp->elbo(x.narrow(0, 0, 12), y.narrow(0, 0, 12), 24).item<double>();
  const double second = gp->elbo(x.narrow(0, 12, 12), y.narrow(0, 12, 12), 24).item<double>();
  EXPECT_NEAR(0.5 * (first + second), full, 1e-10 * std::abs(full));
  const MarginalNormal q = gp->marginals(x);
  const double expected_ll =
      parts.likelihood->expected_log_prob(y, q.mean, q.variance).sum().item<double>();
  EXPECT_NEAR(full, expected_ll - kl, 1e-10 * std::abs(full));
  EXPECT_NEAR(gp->elbo(x.narrow(0, 0, 6), y.narrow(0, 0, 6), 24).item<double>(),
              4.0 * parts.likelihood
                          ->expected_log_prob(y.narrow(0, 0, 6), q.mean.narrow(0, 0, 6),
                                              q.variance.narrow(0, 0, 6))
                          .sum()
                          .item<double>() -
                  kl,
              1e-9 * std::abs(full));
}

TEST(SparseVariationalGp, elbo_gradients_match_finite_differences) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(16, 1), y = targets(x, 2);
  SparseVariationalGp gp = make_sparse(parts, inputs(5, 9));
  set_random_q(*gp, 6);
  // mean (2), kernel (2), likelihood (1), Z, m, R.
  ASSERT_EQ(gp->parameters().size(), 8u);
  expect_gradients_match(
      *gp, [&] { return gp->elbo(x, y, 48); }, 1e-6, 1e-6, 8);
}

TEST(SparseVariationalGp, inducing_inputs_can_be_frozen) {
  const GpParts parts = make_parts();
  SparseVariationalGpOptions options;
  options.train_inducing_inputs = false;
  const SparseVariationalGp gp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(),
                               inputs(4, 1), options);
  EXPECT_FALSE(gp->inducing_inputs().requires_grad());
  EXPECT_TRUE(gp->variational_mean().requires_grad());
}

TEST(SparseVariationalGp, from_exact_places_inducing_inputs_by_kmeans_and_shares_parts) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(40, 1), y = targets(x, 2);
  const ExactGp exact = make_exact_gp(parts, x, y);
  KMeansOptions inducing;
  inducing.clusters = 12;
  const SparseVariationalGp sparse = sparse_gp_from_exact(*exact, x, inducing);
  EXPECT_EQ(sparse->inducing_points(), 12);
  EXPECT_TRUE(at::equal(sparse->inducing_inputs(), kmeans(x, inducing)));
  EXPECT_EQ(sparse->kernel().get(), exact->kernel().get());
  const MultivariateNormal expected = exact->posterior(sparse->inducing_inputs());
  EXPECT_LT(max_abs(sparse->inducing_distribution().mean - expected.mean), 1e-10);
  // Fewer inputs than inducing points: Z = the inputs (default M = 128).
  const SparseVariationalGp all = sparse_gp_from_exact(*exact, x);
  EXPECT_TRUE(at::equal(all->inducing_inputs(), x));
}

TEST(SparseVariationalGp, arguments_are_checked_by_name) {
  const GpParts parts = make_parts();
  const at::Tensor z = inputs(4, 1), x = inputs(6, 2), y = targets(x, 3);
  SparseVariationalGp gp = make_sparse(parts, z);
  try {
    gp->elbo(x, y, 5);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("n_total must be >= the batch size 6 (got 5)"));
  }
  EXPECT_THROW(gp->elbo(x, y.narrow(0, 0, 5), 6), std::invalid_argument);
  EXPECT_THROW(gp->marginals(at::zeros({3, 3}, kReal)), std::invalid_argument);
  EXPECT_THROW(make_sparse(parts, at::zeros({4, 3}, kReal)), std::invalid_argument);
  try {
    const at::Tensor singular = at::diag(at::tensor({1.0, 1.0, 0.0, 1.0}, kReal));
    gp->set_variational_distribution(at::zeros({4}, kReal), singular);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("diagonal of the Cholesky factor must be finite and > 0"));
  }
}

// Monte Carlo over 20000 draws of draw_inducing_outputs: mean and covariance those of q(u),
// each entry within 5 % of the largest (standard errors about 1 % of their scale).
TEST(SparseVariationalGp, inducing_output_draws_are_draws_of_q_u) {
  const GpParts parts = make_parts();
  SparseVariationalGp gp = make_sparse(parts, inputs(4, 31));
  set_random_q(*gp, 32);
  const MultivariateNormal q = gp->inducing_distribution();
  bhpm::util::Rng rng(7);
  std::vector<at::Tensor> draws;
  for (int i = 0; i < 20000; ++i) draws.push_back(gp->draw_inducing_outputs(rng));
  const at::Tensor u = at::stack(draws);
  const at::Tensor centred = u - u.mean(0);
  const at::Tensor covariance = at::mm(centred.t(), centred) / 19999.0;
  EXPECT_LT(max_abs(covariance - q.covariance), 0.05 * max_abs(q.covariance));
  EXPECT_LT(max_abs(u.mean(0) - q.mean), 0.05 * std::sqrt(max_abs(q.covariance)));
}

TEST(SparseVariationalGp, a_copy_with_the_shared_prior_has_its_own_posterior) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(12, 3);
  SparseVariationalGp gp = make_sparse(parts, inputs(6, 4));
  set_random_q(*gp, 7);
  const MarginalNormal before = gp->marginals(x);
  SparseVariationalGp copy = copy_with_shared_prior(*gp);
  EXPECT_EQ(copy->kernel().get(), gp->kernel().get());
  EXPECT_EQ(copy->mean().get(), gp->mean().get());
  const MarginalNormal copied = copy->marginals(x);
  EXPECT_EQ(max_abs(copied.mean - before.mean), 0.0);
  EXPECT_EQ(max_abs(copied.variance - before.variance), 0.0);
  for (const at::Tensor& own : copy->parameters(/*recurse=*/false))
    EXPECT_FALSE(own.requires_grad());
  // q(v) = p(v) = N(0, I) in the copy: the prior's marginals there, the original's unchanged.
  const std::int64_t m = copy->inducing_points();
  copy->set_variational_distribution(at::zeros({m}, kReal), at::eye(m, kReal));
  const MarginalNormal prior = copy->marginals(x);
  EXPECT_LT(max_abs(prior.mean - dense_mean(x)), 1e-12);
  EXPECT_LT(max_abs(prior.variance - at::diag(dense_kernel(x, x))), 1e-12);
  const MarginalNormal after = gp->marginals(x);
  EXPECT_EQ(max_abs(after.mean - before.mean), 0.0);
  EXPECT_EQ(max_abs(after.variance - before.variance), 0.0);
}
