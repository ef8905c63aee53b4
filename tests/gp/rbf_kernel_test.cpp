// RbfKernel: the ARD squared exponential against a loop, its parameters and checks; the
// kernel table that builds kernels by name.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gp/finite_difference.h"
#include "gp/kernel_table.h"
#include "gp/rbf_kernel.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);

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
  EXPECT_EQ(kernel_names(), std::vector<std::string>{"rbf"});
  const std::shared_ptr<Kernel> kernel =
      bhpm::gp::make_kernel("rbf", {at::tensor({0.5, 1.5, 3.0}, kReal), 2.0});
  const RbfKernel reference = make_kernel();
  const at::Tensor x = at::randn({5, 3}, kReal), y = at::randn({4, 3}, kReal);
  EXPECT_TRUE(at::allclose(kernel->matrix(x, y), reference->matrix(x, y), 1e-14, 1e-14));
  try {
    bhpm::gp::make_kernel("matern", {at::ones({3}, kReal), 1.0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("kernel: name must be \"rbf\" (got \"matern\")"));
  }
}
