// The kernels: RbfKernel (the ARD squared exponential) against a loop, its parameters and
// checks; RbfQuadraticKernel against its formula, its exact features and the closed-form
// posterior of Bayesian quadratic regression; the kernel table that builds kernels by name.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/autograd.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gp/exact_gp.h"
#include "gp/finite_difference.h"
#include "gp/gaussian_likelihood.h"
#include "gp/kernel_table.h"
#include "gp/linear_mean.h"
#include "gp/random_features.h"
#include "gp/rbf_kernel.h"
#include "gp/rbf_quadratic_kernel.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;

RbfKernel make_kernel() {
  RbfKernel kernel(RbfKernelOptions{3, 1.0, 1.0});
  kernel->set_lengthscales(at::tensor({0.5, 1.5, 3.0}, kReal));
  kernel->set_signal_variance(2.0);
  return kernel;
}

/// s^2 exp(-1/2 sum_d (x1_id - x2_jd)^2 / l_d^2), one entry at a time.
double reference(const at::Tensor& x1, const at::Tensor& x2, std::int64_t i, std::int64_t j) {
  const double l[3] = {0.5, 1.5, 3.0};
  double sum = 0.0;
  for (int d = 0; d < 3; ++d) {
    const double diff = x1[i][d].item<double>() - x2[j][d].item<double>();
    sum += diff * diff / (l[d] * l[d]);
  }
  return 2.0 * std::exp(-0.5 * sum);
}

}  // namespace

TEST(RbfKernel, matrix_matches_the_formula_entry_by_entry) {
  const RbfKernel kernel = make_kernel();
  at::manual_seed(1);
  const at::Tensor x1 = at::randn({5, 3}, kReal);
  const at::Tensor x2 = at::randn({4, 3}, kReal);
  const at::Tensor k = kernel->matrix(x1, x2);
  ASSERT_EQ(k.sizes(), (std::vector<std::int64_t>{5, 4}));
  for (std::int64_t i = 0; i < 5; ++i)
    for (std::int64_t j = 0; j < 4; ++j)
      EXPECT_NEAR(k[i][j].item<double>(), reference(x1, x2, i, j), 1e-14);
}

TEST(RbfKernel, gram_matrix_is_symmetric_positive_semidefinite_with_the_diagonal) {
  const RbfKernel kernel = make_kernel();
  at::manual_seed(2);
  const at::Tensor x = at::randn({20, 3}, kReal);
  const at::Tensor k = kernel->matrix(x, x);
  EXPECT_LT((k - k.t()).abs().max().item<double>(), 1e-15);
  EXPECT_GT(at::linalg_eigvalsh(k).min().item<double>(), -1e-12);
  const at::Tensor diagonal = kernel->diagonal(x);
  ASSERT_EQ(diagonal.sizes(), (std::vector<std::int64_t>{20}));
  EXPECT_LT((diagonal - k.diagonal()).abs().max().item<double>(), 1e-14);
  EXPECT_LT((diagonal - 2.0).abs().max().item<double>(), 1e-14);
}

TEST(RbfKernel, positive_parameters_go_through_softplus) {
  RbfKernel kernel = make_kernel();
  const at::Tensor expected = at::tensor({0.5, 1.5, 3.0}, kReal);
  EXPECT_LT((kernel->lengthscales() - expected).abs().max().item<double>(), 1e-14);
  EXPECT_NEAR(kernel->signal_variance().item<double>(), 2.0, 1e-14);
  const auto parameters = kernel->named_parameters();
  ASSERT_EQ(parameters.size(), 2u);
  const at::Tensor raw = parameters["raw_lengthscale"];
  EXPECT_TRUE(raw.requires_grad());
  EXPECT_LT((at::softplus(raw) - kernel->lengthscales()).abs().max().item<double>(), 1e-15);
  EXPECT_NEAR(at::softplus(parameters["raw_signal_variance"]).item<double>(), 2.0, 1e-14);
  kernel->set_lengthscales(0.25);
  EXPECT_LT((kernel->lengthscales() - 0.25).abs().max().item<double>(), 1e-14);
  // Very small and large values survive the round trip.
  kernel->set_signal_variance(1e-9);
  EXPECT_NEAR(kernel->signal_variance().item<double>() / 1e-9, 1.0, 1e-10);
  kernel->set_signal_variance(1e3);
  EXPECT_NEAR(kernel->signal_variance().item<double>(), 1e3, 1e-9);
}

TEST(RbfKernel, gradients_with_respect_to_raw_parameters_match_finite_differences) {
  RbfKernel kernel = make_kernel();
  at::manual_seed(3);
  const at::Tensor x1 = at::randn({6, 3}, kReal);
  const at::Tensor x2 = at::randn({5, 3}, kReal);
  const at::Tensor weights = at::randn({6, 5}, kReal);
  bhpm::gp::test::expect_gradients_match(*kernel,
                                         [&] { return (kernel->matrix(x1, x2) * weights).sum(); });
}

TEST(RbfKernel, options_and_inputs_are_checked_by_name) {
  try {
    RbfKernel(RbfKernelOptions{0, 1.0, 1.0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("rbf kernel: dimensions must be >= 1 (got 0)"));
  }
  EXPECT_THROW(RbfKernel(RbfKernelOptions{2, -1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(RbfKernel(RbfKernelOptions{2, 1.0, std::nan("")}), std::invalid_argument);
  RbfKernel kernel = make_kernel();
  try {
    kernel->matrix(at::zeros({4, 2}, kReal), at::zeros({4, 3}, kReal));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("rbf kernel: x1 must be a double tensor of shape [N, 3]"));
    EXPECT_THAT(e.what(), HasSubstr("(got [4, 2] Double)"));
  }
  EXPECT_THROW(kernel->diagonal(at::zeros({4, 3}, at::kFloat)), std::invalid_argument);
  EXPECT_THROW(kernel->set_lengthscales(at::tensor({1.0, 0.0, 1.0}, kReal)), std::invalid_argument);
  EXPECT_THROW(kernel->set_signal_variance(0.0), std::invalid_argument);
}

TEST(RbfKernel, the_kernel_interface_reports_its_scales_and_hyperparameters) {
  const RbfKernel kernel = make_kernel();
  const Kernel& any = *kernel;
  EXPECT_EQ(any.name(), "rbf");
  EXPECT_NEAR(any.prior_variance().item<double>(), 2.0, 1e-12);
  EXPECT_TRUE(at::allclose(any.input_scales(), at::tensor({0.5, 1.5, 3.0}, kReal)));
  const std::vector<Hyperparameter> parameters = any.hyperparameters();
  ASSERT_EQ(parameters.size(), 2u);
  EXPECT_EQ(parameters[0].name, "lengthscales");
  EXPECT_TRUE(at::allclose(parameters[0].value, any.input_scales()));
  EXPECT_FALSE(parameters[0].value.requires_grad());
  EXPECT_EQ(parameters[1].name, "signal_variance");
  EXPECT_EQ(parameters[1].value.dim(), 0);
}

TEST(KernelTable, builds_a_kernel_by_name_and_lists_the_names_it_knows) {
  EXPECT_EQ(kernel_names(), (std::vector<std::string>{"rbf", "rbf+quadratic"}));
  const std::shared_ptr<Kernel> kernel =
      bhpm::gp::make_kernel("rbf", {at::tensor({0.5, 1.5, 3.0}, kReal), 2.0});
  const RbfKernel reference = make_kernel();
  const at::Tensor x = at::randn({5, 3}, kReal), y = at::randn({4, 3}, kReal);
  EXPECT_TRUE(at::allclose(kernel->matrix(x, y), reference->matrix(x, y), 1e-14, 1e-14));
  try {
    bhpm::gp::make_kernel("matern", {at::ones({3}, kReal), 1.0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("kernel: name must be \"rbf\" or \"rbf+quadratic\" (got \"matern\")"));
  }
}

// The kernel contract (gp/kernel.h): every kernel of the table gives random features whose
// inner products approach it. With F = 1e5 Fourier features an entry's error has standard
// deviation at most 2 s^2 / sqrt(F) = 0.0127 for s^2 = 2 (each feature pair's product of
// cosines lies in [-1, 1] twice over; a finite-rank part is exact), so 0.065 is five of them.
// A row's features do not depend on the rows evaluated with it.
TEST(KernelTable, every_kernel_gives_random_features_whose_products_approach_it) {
  const at::NoGradGuard no_grad;
  const at::Tensor x = at::linspace(-1.5, 2.0, 18, kReal).view({6, 3});
  for (const std::string& name : kernel_names()) {
    const std::shared_ptr<Kernel> kernel =
        bhpm::gp::make_kernel(name, {at::tensor({0.5, 1.5, 3.0}, kReal), 2.0});
    const std::shared_ptr<const RandomFeatures> features = kernel->random_features(100000, 9);
    const at::Tensor phi = features->evaluate(x);
    EXPECT_EQ(phi.size(1), features->count()) << name;
    const double error = (phi.mm(phi.t()) - kernel->matrix(x, x)).abs().max().item<double>();
    EXPECT_LT(error, 0.065) << name;
    EXPECT_TRUE(at::equal(features->evaluate(x.slice(0, 2, 3)), phi.slice(0, 2, 3))) << name;
    EXPECT_TRUE(at::equal(kernel->random_features(100000, 9)->evaluate(x), phi)) << name;
  }
}

namespace {

/// l = (0.5, 1.5, 3), s^2 = 2, a = (1, 2, 0.5), c^2 = 0.3.
RbfQuadraticKernel make_quadratic_kernel() {
  RbfQuadraticKernel kernel(RbfQuadraticKernelOptions{3, 1.0, 2.0, 0.3});
  kernel->rbf().set_lengthscales(at::tensor({0.5, 1.5, 3.0}, kReal));
  kernel->set_polynomial_scales(at::tensor({1.0, 2.0, 0.5}, kReal));
  return kernel;
}

}  // namespace

TEST(RbfQuadraticKernel, matrix_is_the_rbf_plus_the_quadratic_polynomial_entry_by_entry) {
  const RbfQuadraticKernel kernel = make_quadratic_kernel();
  at::manual_seed(4);
  const at::Tensor x1 = at::randn({5, 3}, kReal), x2 = at::randn({4, 3}, kReal);
  const at::Tensor k = kernel->matrix(x1, x2);
  const double a[3] = {1.0, 2.0, 0.5};
  for (std::int64_t i = 0; i < 5; ++i)
    for (std::int64_t j = 0; j < 4; ++j) {
      double inner = 0.0;
      for (int d = 0; d < 3; ++d)
        inner += x1[i][d].item<double>() * x2[j][d].item<double>() / (a[d] * a[d]);
      EXPECT_NEAR(k[i][j].item<double>(), reference(x1, x2, i, j) + 0.3 * (1 + inner) * (1 + inner),
                  1e-13);
    }
  const at::Tensor gram = kernel->matrix(x1, x1);
  EXPECT_GT(at::linalg_eigvalsh(gram).min().item<double>(), -1e-12);
  EXPECT_LT((kernel->diagonal(x1) - gram.diagonal()).abs().max().item<double>(), 1e-13);
  EXPECT_NEAR(kernel->prior_variance().item<double>(), 2.0, 1e-12);  // the bounded part
}

// The batched mean update K(x1_b, x2_b) w_b of each member, against the matrix; also at
// points far apart (exponent about -1400: exp underflows to 0 and nothing overflows) and
// equal points (exponent 0 up to rounding), and its gradient in x1 against the matrix's.
TEST(Kernels, a_batched_weighted_sum_is_the_matrix_times_the_weights_of_each_batch_member) {
  at::manual_seed(5);
  at::Tensor x1 = at::randn({3, 5, 3}, kReal), x2 = at::randn({3, 4, 3}, kReal);
  x1[1][0] = x2[1][2];
  x2[2][3] = x1[2][4] + 25.0;
  const at::Tensor w = at::randn({3, 4}, kReal);
  const std::vector<std::shared_ptr<Kernel>> kernels = {make_kernel().ptr(),
                                                        make_quadratic_kernel().ptr()};
  for (const std::shared_ptr<Kernel>& kernel : kernels) {
    const at::Tensor inputs = x1.clone().set_requires_grad(true);
    const at::Tensor batched = kernel->batched_weighted_sum(inputs, x2, w);
    ASSERT_EQ(batched.sizes(), (at::IntArrayRef{3, 5})) << kernel->name();
    const at::Tensor gradient = torch::autograd::grad({batched.sum()}, {inputs})[0];
    for (std::int64_t b = 0; b < 3; ++b) {
      const at::Tensor member = x1[b].clone().set_requires_grad(true);
      const at::Tensor expected = at::mv(kernel->matrix(member, x2[b]), w[b]);
      EXPECT_LT((batched[b] - expected).abs().max().item<double>(), 1e-13) << kernel->name();
      const at::Tensor expected_gradient = torch::autograd::grad({expected.sum()}, {member})[0];
      EXPECT_LT((gradient[b] - expected_gradient).abs().max().item<double>(), 1e-12)
          << kernel->name();
    }
    EXPECT_THAT([&] { kernel->batched_weighted_sum(x1, x2.narrow(0, 0, 2), w); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("x2")));
    EXPECT_THAT([&] { kernel->batched_weighted_sum(x1[0], x2, w); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("x1")));
    EXPECT_THAT([&] { kernel->batched_weighted_sum(x1, x2, w.narrow(1, 0, 3)); },
                ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("w")));
  }
}

TEST(RbfQuadraticKernel, exact_features_reproduce_the_quadratic_part) {
  const RbfQuadraticKernel kernel = make_quadratic_kernel();
  at::manual_seed(5);
  const at::Tensor x1 = at::randn({6, 3}, kReal), x2 = at::randn({7, 3}, kReal);
  const at::Tensor phi1 = kernel->polynomial_features(x1);
  ASSERT_EQ(phi1.sizes(), (std::vector<std::int64_t>{6, 1 + 2 * 3 + 3}));
  EXPECT_EQ(kernel->polynomial_feature_count(), phi1.size(1));
  const at::Tensor quadratic = kernel->matrix(x1, x2) - kernel->rbf().matrix(x1, x2);
  EXPECT_LT(
      (at::mm(phi1, kernel->polynomial_features(x2).t()) - quadratic).abs().max().item<double>(),
      1e-13);
}

TEST(RbfQuadraticKernel, gradients_with_respect_to_raw_parameters_match_finite_differences) {
  RbfQuadraticKernel kernel = make_quadratic_kernel();
  at::manual_seed(6);
  const at::Tensor x1 = at::randn({6, 3}, kReal), x2 = at::randn({5, 3}, kReal);
  const at::Tensor weights = at::randn({6, 5}, kReal);
  EXPECT_EQ(kernel->named_parameters().size(), 4u);
  bhpm::gp::test::expect_gradients_match(*kernel,
                                         [&] { return (kernel->matrix(x1, x2) * weights).sum(); });
}

// With s^2 negligible the GP is Bayesian regression on the features phi (prior
// w ~ N(0, I)): posterior mean phi_* Sigma_w Phi^T r / sigma^2 and variance
// phi_* Sigma_w phi_*^T with Sigma_w = (I + Phi^T Phi / sigma^2)^{-1}, r = y - mu(X). On
// data of an exact quadratic in [-1, 1]^2 it extrapolates to (3, -3) within 3 posterior
// standard deviations, whose size grows away from the data; the RBF kernel's does not.
TEST(RbfQuadraticKernel, posterior_is_bayesian_quadratic_regression_and_widens_off_the_data) {
  auto kernel =
      std::make_shared<RbfQuadraticKernelImpl>(RbfQuadraticKernelOptions{2, 1.0, 1e-14, 1.0});
  auto mean = std::make_shared<LinearMeanImpl>(LinearMeanOptions{2});
  const double noise = 1e-2;
  auto likelihood = std::make_shared<GaussianLikelihoodImpl>(GaussianLikelihoodOptions{noise, 0.0});
  auto gen = at::make_generator<at::CPUGeneratorImpl>(7);
  const at::Tensor x = at::empty({40, 2}, kReal).uniform_(-1.0, 1.0, gen);
  auto truth = [](const at::Tensor& v) {
    return 0.5 - v.select(1, 0) * v.select(1, 1) + 0.3 * v.select(1, 1).square();
  };
  const at::Tensor y = truth(x) + 0.1 * at::normal(0.0, 1.0, {40}, gen, at::kDouble);
  const ExactGp gp(mean, kernel, likelihood, x, y);
  const at::NoGradGuard no_grad;
  const at::Tensor x_star = at::tensor({0.2, 0.1, 3.0, -3.0}, kReal).view({2, 2});
  const MarginalNormal posterior = gp->marginals(x_star);

  const at::Tensor phi = kernel->polynomial_features(x),
                   phi_star = kernel->polynomial_features(x_star);
  const at::Tensor sigma_w =
      at::linalg_inv(at::eye(phi.size(1), kReal) + at::mm(phi.t(), phi) / noise);
  const at::Tensor mean_w = at::mv(sigma_w, at::mv(phi.t(), y)) / noise;
  const at::Tensor expected_mean = at::mv(phi_star, mean_w);
  const at::Tensor expected_variance = (at::mm(phi_star, sigma_w) * phi_star).sum(1);
  EXPECT_TRUE(at::allclose(posterior.mean, expected_mean, 1e-6, 1e-8)) << posterior.mean;
  EXPECT_TRUE(at::allclose(posterior.variance, expected_variance, 1e-5, 1e-10))
      << posterior.variance;

  const at::Tensor error = (posterior.mean - truth(x_star)).abs();
  EXPECT_LT(error[1].item<double>(), 3.0 * posterior.variance[1].sqrt().item<double>());
  EXPECT_GT(posterior.variance[1].item<double>(), 100.0 * posterior.variance[0].item<double>());
}
