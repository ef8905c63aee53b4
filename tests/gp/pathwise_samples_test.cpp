// Pathwise samples of a sparse or exact GP (Wilson et al. 2020) against the closed-form
// posterior: a statistical test with a fixed seed, plus determinism and sample independence
// from S;
// every kernel of the table can be sampled pathwise (bhpm distill always samples so);
// the inflated posterior (gp/inflated_posterior.h) scales q(u)'s share of the variance, and
// inflated samples (gp/inflated_samples.h) scale their deviation from q(f)'s mean exactly.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gp/conditioned_gp.h"
#include "gp/gp_test_problem.h"
#include "gp/inflated_posterior.h"
#include "gp/inflated_samples.h"
#include "gp/kernel_table.h"
#include "gp/pathwise_samples.h"
#include "gp/posterior_mean.h"
#include "gp/rbf_quadratic_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "util/random.h"

using namespace bhpm::gp;
using namespace bhpm::gp::test;

namespace {

/// A sparse GP with M = 8 inducing inputs and a non-trivial q(v) = N(m, L_S L_S^T).
SparseVariationalGp make_sparse_gp(const GpParts& parts) {
  SparseVariationalGp gp(parts.mean.ptr(), parts.kernel.ptr(), parts.likelihood.ptr(),
                         inputs(8, 21));
  auto gen = at::make_generator<at::CPUGeneratorImpl>(22);
  const at::Tensor mean = at::normal(0.0, 1.0, {8}, gen, at::kDouble);
  const at::Tensor lower =
      0.5 * at::eye(8, kReal) + 0.1 * at::normal(0.0, 1.0, {8, 8}, gen, at::kDouble).tril(-1);
  gp->set_variational_distribution(mean, lower);
  return gp;
}

/// q(f) at x by dense algebra: mean mu(x) + A (mu_u - mu(Z)), covariance
/// K_xx - A K_zx + A Sigma_u A^T, A = K_xz K_zz^{-1}, with mu_u = mu(Z) + L m and
/// Sigma_u = L L_S L_S^T L^T, L = chol(K_zz).
MultivariateNormal dense_q_f(const SparseVariationalGpImpl& gp, const at::Tensor& x) {
  const at::Tensor z = gp.inducing_inputs().detach();
  const at::Tensor l = at::linalg_cholesky(dense_kernel(z, z));
  const at::Tensor a = at::linalg_solve(dense_kernel(z, z), dense_kernel(z, x)).t();
  const at::Tensor factor = at::mm(l, gp.variational_cholesky().detach());
  const at::Tensor mean = dense_mean(x) + at::mv(at::mm(a, l), gp.variational_mean().detach());
  const at::Tensor covariance = dense_kernel(x, x) - at::mm(a, dense_kernel(z, x)) +
                                at::mm(at::mm(a, at::mm(factor, factor.t())), a.t());
  return {mean, covariance};
}

/// Samples' values [S, P] against the posterior at the P points: the mean within 5 Monte Carlo
/// standard errors, every covariance entry within 0.08 s^2.
void expect_monte_carlo_match(const at::Tensor& values, const MultivariateNormal& expected) {
  const std::int64_t count = values.size(0);
  const at::Tensor error = values.mean(0) - expected.mean;
  const at::Tensor standard_error = at::sqrt(expected.covariance.diagonal() / count);
  EXPECT_TRUE(at::all(error.abs() < 5.0 * standard_error).item<bool>())
      << "error " << error << "\nstandard error " << standard_error;
  const at::Tensor centred = values - values.mean(0);
  const at::Tensor covariance = at::mm(centred.t(), centred) / static_cast<double>(count - 1);
  EXPECT_LT((covariance - expected.covariance).abs().max().item<double>(), 0.08 * kSignalVariance)
      << covariance << "\n"
      << expected.covariance;
}

}  // namespace

// 4000 samples, 4096 features, at 4 points: the mean within 5 Monte Carlo standard errors
// (the feature approximation leaves the mean unbiased); every covariance entry within
// 0.08 s^2 (Monte Carlo error s^2 sqrt(2/4000) ~ 0.02 s^2 plus the features' O(F^-1/2)).
TEST(PathwiseSamples, match_the_sparse_gp_posterior) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  const at::NoGradGuard no_grad;
  const std::int64_t count = 4000;
  const PathwiseSamples samples(*gp, count, {4096, 23});
  const at::Tensor x = at::cat({inputs(3, 24), gp->inducing_inputs().detach().slice(0, 0, 1)});
  const at::Tensor values = samples.evaluate(x.unsqueeze(0).expand({count, -1, -1}));  // [S, 4]
  const MultivariateNormal expected = dense_q_f(*gp, x);

  expect_monte_carlo_match(values, expected);
}

// The exact GP's pathwise samples (Eq. 13 with the likelihood's noise) against its closed-form
// posterior: 4000 samples, 4096 features, 12 training points, at 3 new points and one training
// input; the same tolerances as the sparse GP's test above. Its posterior mean as one function
// is the closed-form mean to rounding.
TEST(PathwiseSamples, match_the_exact_gp_posterior) {
  const GpParts parts = make_parts();
  const at::Tensor x_train = inputs(12, 31);
  const ExactGp gp = make_exact_gp(parts, x_train, targets(x_train, 32));
  const at::NoGradGuard no_grad;
  const ExactGpFactor factor = gp->factorize();
  const std::int64_t count = 4000;
  const PathwiseSamples samples(*gp, factor, count, {4096, 33});
  const at::Tensor x = at::cat({inputs(3, 34), x_train.slice(0, 0, 1)});
  const at::Tensor values = samples.evaluate(x.unsqueeze(0).expand({count, -1, -1}));  // [S, 4]
  const MultivariateNormal expected = gp->posterior(x);

  expect_monte_carlo_match(values, expected);
  const PosteriorMean mean(*gp, factor);
  EXPECT_TRUE(at::allclose(mean.evaluate(x.unsqueeze(0)).squeeze(0), expected.mean, 1e-10, 1e-12));
}

// The contract of gp/kernel_table.h: a kernel of the table has random features here, so
// `bhpm distill` and pathwise predictions work with it. 2000 samples with 2048 features at
// 3 points against q(f)'s marginals: means within 5 Monte Carlo standard errors, variances
// within 15 % (Monte Carlo sqrt(2/2000) ~ 3 % plus the features' error).
TEST(PathwiseSamples, exist_for_every_kernel_of_the_table) {
  const GpParts parts = make_parts();
  const at::NoGradGuard no_grad;
  for (const std::string& name : kernel_names()) {
    const std::shared_ptr<Kernel> kernel =
        make_kernel(name, {at::tensor({1.0, 1.5}, kReal), kSignalVariance});
    SparseVariationalGp gp(parts.mean.ptr(), kernel, parts.likelihood.ptr(), inputs(8, 21));
    auto gen = at::make_generator<at::CPUGeneratorImpl>(32);
    gp->set_variational_distribution(at::normal(0.0, 1.0, {8}, gen, at::kDouble),
                                     0.5 * at::eye(8, kReal));
    const std::int64_t count = 2000;
    std::unique_ptr<PathwiseSamples> samples;
    ASSERT_NO_THROW(samples =
                        std::make_unique<PathwiseSamples>(*gp, count, PathwiseOptions{2048, 33}))
        << "kernel " << name;
    const at::Tensor x = inputs(3, 34);
    const at::Tensor values = samples->evaluate(x.unsqueeze(0).expand({count, -1, -1}));
    const MarginalNormal expected = gp->marginals(x);
    const at::Tensor standard_error = at::sqrt(expected.variance / count);
    EXPECT_TRUE(at::all((values.mean(0) - expected.mean).abs() < 5.0 * standard_error).item<bool>())
        << "kernel " << name << ": mean " << values.mean(0) << " against " << expected.mean;
    EXPECT_TRUE(at::all((values.var(0) / expected.variance - 1.0).abs() < 0.15).item<bool>())
        << "kernel " << name << ": variance " << values.var(0) << " against " << expected.variance;
  }
}

TEST(PathwiseSamples, are_fixed_functions_independent_of_the_ensemble_size) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  const at::NoGradGuard no_grad;
  const PathwiseSamples three(*gp, 3, {256, 5});
  const PathwiseSamples five(*gp, 5, {256, 5});
  const at::Tensor x = inputs(6, 25).unsqueeze(0);
  const at::Tensor a = three.evaluate(x.expand({3, -1, -1}));
  EXPECT_TRUE(at::equal(a, three.evaluate(x.expand({3, -1, -1}))));
  EXPECT_TRUE(at::allclose(a, five.evaluate(x.expand({5, -1, -1})).slice(0, 0, 3), 0.0, 1e-14));
  EXPECT_GT((a[0] - a[1]).abs().max().item<double>(), 1e-3);  // samples differ
}

TEST(PathwiseSamples, reject_bad_arguments) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  EXPECT_THROW(PathwiseSamples(*gp, 0, {}), std::invalid_argument);
  EXPECT_THROW(PathwiseSamples(*gp, 2, {0, 0}), std::invalid_argument);
  const PathwiseSamples samples(*gp, 2, {16, 0});
  EXPECT_THROW(samples.evaluate(at::zeros({3, 4, 2}, kReal)), std::invalid_argument);
}

// The rbf+quadratic kernel: its quadratic part joins the features exactly, so 4000
// samples match q(f) (dense algebra with the kernel's own matrix) as closely as for the
// RBF kernel, relative to each entry's scale sqrt(C_ii C_jj); off the data (x = (5, -5))
// the spread is the quadratic part's, far above s^2.
TEST(PathwiseSamples, match_the_sparse_gp_posterior_with_the_rbf_quadratic_kernel) {
  const GpParts parts = make_parts();
  auto kernel = std::make_shared<RbfQuadraticKernelImpl>(
      RbfQuadraticKernelOptions{2, 1.0, kSignalVariance, 0.2});
  kernel->rbf().set_lengthscales(at::tensor({kLengthscales[0], kLengthscales[1]}, kReal));
  SparseVariationalGp gp(parts.mean.ptr(), kernel, parts.likelihood.ptr(), inputs(8, 21));
  auto gen = at::make_generator<at::CPUGeneratorImpl>(22);
  gp->set_variational_distribution(at::normal(0.0, 1.0, {8}, gen, at::kDouble),
                                   0.5 * at::eye(8, kReal));
  const at::NoGradGuard no_grad;
  const std::int64_t count = 4000;
  const PathwiseSamples samples(*gp, count, {4096, 23});
  const at::Tensor x = at::cat({inputs(3, 24), at::tensor({5.0, -5.0}, kReal).view({1, 2})});
  const at::Tensor values = samples.evaluate(x.unsqueeze(0).expand({count, -1, -1}));

  const at::Tensor z = gp->inducing_inputs().detach();
  const at::Tensor k_zz = kernel->matrix(z, z), k_zx = kernel->matrix(z, x);
  const at::Tensor a = at::linalg_solve(k_zz, k_zx).t();
  const at::Tensor factor = at::mm(at::linalg_cholesky(k_zz), gp->variational_cholesky().detach());
  const at::Tensor mean =
      dense_mean(x) + at::mv(at::mm(a, at::linalg_cholesky(k_zz)), gp->variational_mean().detach());
  const at::Tensor covariance =
      kernel->matrix(x, x) - at::mm(a, k_zx) + at::mm(at::mm(a, at::mm(factor, factor.t())), a.t());

  const at::Tensor standard_error = at::sqrt(covariance.diagonal() / count);
  EXPECT_TRUE(at::all((values.mean(0) - mean).abs() < 5.0 * standard_error).item<bool>());
  const at::Tensor centred = values - values.mean(0);
  const at::Tensor sample_covariance =
      at::mm(centred.t(), centred) / static_cast<double>(count - 1);
  const at::Tensor scale = at::outer(covariance.diagonal().sqrt(), covariance.diagonal().sqrt());
  EXPECT_LT(((sample_covariance - covariance) / scale).abs().max().item<double>(), 0.08)
      << sample_covariance << "\n"
      << covariance;
  EXPECT_GT(covariance[3][3].item<double>(), 10.0 * kSignalVariance);
}

// q_kappa(u) scales the covariance that q(u) makes, not the prior's remainder given u: by
// dense algebra, the mean stays; at the inducing inputs, where the remainder is 0, the
// variance is kappa times q(f)'s; far from them it is the prior's; and the same pathwise
// draws deviate from the mean by the prior's part plus sqrt(kappa) times q(u)'s.
TEST(InflatedPosterior, scales_the_variance_that_the_inducing_outputs_make) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  const at::NoGradGuard no_grad;
  const SparseVariationalGp inflated = inflated_posterior(*gp, 4.0);
  const at::Tensor z = gp->inducing_inputs().detach();
  const at::Tensor far = z.slice(0, 0, 2) + 1e3;
  const at::Tensor x = at::cat({inputs(3, 24), z.slice(0, 0, 2), far});
  const MultivariateNormal plain = dense_q_f(*gp, x), wider = dense_q_f(*inflated, x);
  EXPECT_LT((wider.mean - plain.mean).abs().max().item<double>(), 1e-12);
  const at::Tensor at_z = at::arange(3, 5, at::kLong), at_far = at::arange(5, 7, at::kLong);
  const at::Tensor variance = plain.covariance.diagonal(),
                   wider_variance = wider.covariance.diagonal();
  EXPECT_LT((wider_variance.index_select(0, at_z) / variance.index_select(0, at_z) - 4.0)
                .abs()
                .max()
                .item<double>(),
            1e-6);
  EXPECT_LT((wider_variance.index_select(0, at_far) - dense_kernel(far, far).diagonal())
                .abs()
                .max()
                .item<double>(),
            1e-9);
  // var_kappa = remainder + kappa q(u)'s part: affine in kappa, so var_4 - var_1 = 3 (var_1 -
  // var_0).
  const MultivariateNormal none = dense_q_f(*inflated_posterior(*gp, 1e-12), x);
  EXPECT_LT((wider_variance - variance - 3.0 * (variance - none.covariance.diagonal()))
                .abs()
                .max()
                .item<double>(),
            1e-9);
  const auto deviation = [&](const SparseVariationalGpImpl& from, const at::Tensor& mean) {
    const PathwiseSamples drawn(from, 3, {64, 25});
    return drawn.evaluate(x.unsqueeze(0).expand({3, -1, -1})) - mean.unsqueeze(0);
  };
  const at::Tensor prior_part = deviation(*inflated_posterior(*gp, 1e-12), plain.mean);
  const at::Tensor made = deviation(*gp, plain.mean) - prior_part;
  // (prior_part holds 1e-6 of q(u)'s part, from kappa = 1e-12.)
  EXPECT_LT(
      (deviation(*inflated, plain.mean) - (prior_part + 2.0 * made)).abs().max().item<double>(),
      1e-5);
  EXPECT_THROW(inflated_posterior(*gp, 0.0), std::invalid_argument);
  EXPECT_THROW(inflated_posterior(*gp, NAN), std::invalid_argument);
}

// f'_s - m = sqrt(kappa) (f_s - m) with m the dense q(f) mean: the mean weights and the
// scaling exact, so the ensemble's covariance is kappa times the posterior's.
TEST(InflatedSamples, scale_each_deviation_from_the_posterior_mean_by_the_root_of_the_factor) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  const at::NoGradGuard no_grad;
  auto samples = std::make_shared<const PathwiseSamples>(*gp, 5, PathwiseOptions{256, 31});
  const InflatedSamples inflated(samples, *gp, 4.0);
  const at::Tensor x = inputs(6, 32).unsqueeze(0).expand({5, -1, -1});
  const at::Tensor mean = dense_q_f(*gp, x[0]).mean.unsqueeze(0);
  const at::Tensor expected = mean + 2.0 * (samples->evaluate(x) - mean);
  EXPECT_LT((inflated.evaluate(x) - expected).abs().max().item<double>(), 1e-9);
  EXPECT_LT((inflated.evaluate_at(x, at::scalar_tensor(0.5, at::kDouble)) - expected)
                .abs()
                .max()
                .item<double>(),
            1e-9);
  EXPECT_EQ(inflated.count(), 5);
  EXPECT_THROW(InflatedSamples(samples, *gp, 0.0), std::invalid_argument);
  EXPECT_THROW(InflatedSamples(samples, *gp, NAN), std::invalid_argument);
  EXPECT_THROW(InflatedSamples(nullptr, *gp, 2.0), std::invalid_argument);
}

// Conditioned samples narrowed about the posterior mean are held as one kernel expansion
// each, f'_s = a f_s + (1 - a) m, the inducing inputs' bumps merged: their plain values
// equal the tensor evaluation to rounding, near the data and three times farther out, and a
// member conditioned on two more points has M + 2 bumps, not 2M + 2.
TEST(InflatedSamples, conditioned_members_evaluate_plain_values_as_one_expansion) {
  const GpParts parts = make_parts();
  const SparseVariationalGp gp = make_sparse_gp(parts);
  const at::NoGradGuard no_grad;
  bhpm::util::Rng rng(33);
  ConditionedGp first = condition_on_inducing_draw(*gp, rng);
  const ConditionedGp second = condition_on_inducing_draw(*gp, rng);
  first = first.extended(inputs(2, 34), targets(inputs(2, 34), 35));
  auto samples = std::make_shared<const ConditionedSamples>(std::vector{first, second});
  const InflatedSamples inflated(samples, *gp, 0.25);
  ASSERT_TRUE(inflated.evaluates_values());
  ASSERT_NE(inflated.expansion(0), nullptr);
  EXPECT_EQ(inflated.expansion(0)->bumps(), 10);
  EXPECT_EQ(inflated.expansion(1)->bumps(), 8);
  const at::Tensor x = 3.0 * at::stack({inputs(50, 36), inputs(50, 37)});
  const at::Tensor expected = inflated.evaluate(x);
  const PosteriorMean mean(*gp);
  const at::Tensor m = mean.evaluate(x);
  for (std::int64_t s = 0; s < 2; ++s) {
    const at::Tensor rows = x[s].t().contiguous();  // [D, P]
    at::Tensor out = at::empty({50}, kReal);
    inflated.evaluate_values(s, rows.data_ptr<double>(), 50, 0.0, out.data_ptr<double>());
    EXPECT_LT(((out - expected[s]).abs() / expected[s].abs().clamp_min(1.0)).max().item<double>(),
              1e-12)
        << "member " << s;
    mean.evaluate_values(s, rows.data_ptr<double>(), 50, 0.0, out.data_ptr<double>());
    EXPECT_LT(((out - m[s]).abs() / m[s].abs().clamp_min(1.0)).max().item<double>(), 1e-12);
  }
}
