// The leaves' last-layer Laplace approximation (model/leaf_laplace.h): the Jacobian of
// the root row against autograd through the Taylor pass, the posterior covariance
// against Bayesian linear regression on autograd features, Cov(z) against Monte Carlo
// over the output layer's weights, and the root's noisy-input term from a minibatch.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>

#include <stdexcept>
#include <vector>

#include "gp/gaussian_likelihood.h"
#include "gp/linear_mean.h"
#include "gp/noisy_inputs.h"
#include "gp/rbf_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "model/leaf_laplace.h"
#include "model/training_fixture.h"
#include "nn/sine_mlp.h"
#include "nn/taylor_forward.h"
#include "support/tensors.h"

using namespace bhpm;

namespace {

constexpr int kOrder = 2;
using bhpm::testing_support::kReal;

model::LeafModel small_leaves() {
  model::LeafModelOptions options = testing_fixture::leaf_options(2, 8);
  options.network.hidden_layers = 2;
  options.initial_noise = 0.05;
  return model::LeafModel(options);
}

/// P points per leaf on the box [-8, 8] x [0, 10] from `seed`.
model::LeafData points(std::int64_t count, std::uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  model::LeafData data;
  data.x = at::empty({2, count}, kReal).uniform_(-8.0, 8.0, generator);
  data.t = at::empty({2, count}, kReal).uniform_(0.0, 10.0, generator);
  data.u = at::zeros({2, count}, kReal);
  data.boxes.assign(2, nn::DomainBox{-8.0, 8.0, 0.0, 10.0});
  return data;
}

/// z [L, S, P]: (u, u_x, u_xx, u_t) from the Taylor pass.
at::Tensor root_rows(const model::LeafModelImpl& leaves, const model::LeafData& data) {
  const nn::LeafDerivatives pass =
      nn::taylor_forward(leaves.network(), data.x, data.t, data.boxes, kOrder);
  return at::cat({pass.u_x_derivatives.permute({1, 0, 2}), pass.u_t.unsqueeze(1)}, 1);
}

/// The output layer (W_{H+1} [L, W, 1], b_{H+1} [L, 1, 1]) as w [L, W + 1].
at::Tensor output_weights(const model::LeafModelImpl& leaves) {
  const nn::SineMlpImpl& net = leaves.network();
  return at::cat({net.weights().back().squeeze(2), net.biases().back().view({-1, 1})}, 1).detach();
}

void set_output_weights(model::LeafModelImpl& leaves, const at::Tensor& w) {
  const at::NoGradGuard no_grad;
  nn::SineMlpImpl& net = leaves.network();
  const std::int64_t width = w.size(1) - 1;
  net.weights().back().copy_(w.narrow(1, 0, width).unsqueeze(2));
  net.biases().back().copy_(w.narrow(1, width, 1).view({-1, 1, 1}));
}

/// d output [L, P] / d w by autograd, one point at a time: [L, P, W + 1].
at::Tensor autograd_jacobian(const model::LeafModelImpl& leaves, const at::Tensor& output) {
  const nn::SineMlpImpl& net = leaves.network();
  std::vector<at::Tensor> rows;
  for (std::int64_t p = 0; p < output.size(1); ++p) {
    const auto grads = torch::autograd::grad({output.select(1, p).sum()},
                                             {net.weights().back(), net.biases().back()}, {},
                                             /*retain_graph=*/true);
    rows.push_back(at::cat({grads[0].squeeze(2), grads[1].view({-1, 1})}, 1));
  }
  return at::stack(rows, 1);
}

}  // namespace

TEST(LeafLaplace, jacobian_rows_are_the_derivatives_of_the_root_row_by_the_output_layer) {
  const model::LeafModel leaves = small_leaves();
  const model::LeafData data = points(5, 1);
  const at::Tensor z = root_rows(*leaves, data);  // [L, S, P]
  const at::Tensor jacobian = model::output_layer_jacobian(
      nn::taylor_hidden_streams(leaves->network(), data.x, data.t, data.boxes, kOrder));
  ASSERT_EQ(jacobian.sizes(), (std::vector<std::int64_t>{2, kOrder + 2, 5, 9}));
  for (int s = 0; s < kOrder + 2; ++s) {
    const at::Tensor expected = autograd_jacobian(*leaves, z.select(1, s));
    EXPECT_LT((jacobian.select(1, s) - expected).abs().max().item<double>(), 1e-12) << s;
  }
  // Linear in the output layer: z = J w.
  const at::Tensor w = output_weights(*leaves);
  const at::Tensor linear = at::matmul(jacobian, w.view({2, 1, 9, 1})).squeeze(3);
  EXPECT_LT((linear - z.detach()).abs().max().item<double>(), 1e-12);
}

TEST(LeafLaplace, covariance_is_the_bayesian_linear_regression_posterior) {
  const model::LeafModel leaves = small_leaves();
  const model::LeafData data = points(40, 2);
  const at::Tensor phi =
      autograd_jacobian(*leaves, leaves->network().forward(data.x, data.t, data.boxes));
  const double sigma = 0.05, prior = 2.0;
  const at::Tensor expected = at::inverse(at::matmul(phi.transpose(1, 2), phi) / (sigma * sigma) +
                                          at::eye(9, kReal) / prior);
  const at::Tensor covariance = model::last_layer_covariance(*leaves, data, prior, 16);
  EXPECT_LT((covariance - expected).abs().max().item<double>(),
            1e-9 * expected.abs().max().item<double>());
  EXPECT_THROW(model::last_layer_covariance(*leaves, data, 0.0), std::invalid_argument);
  EXPECT_THROW(model::root_row_covariance(*leaves, covariance.narrow(1, 0, 8), data, kOrder),
               std::invalid_argument);
}

TEST(LeafLaplace, row_covariance_matches_monte_carlo_over_the_output_layer) {
  model::LeafModel leaves = small_leaves();
  const at::Tensor covariance = model::last_layer_covariance(*leaves, points(30, 3));
  const model::LeafData evaluation = points(3, 4);
  const at::Tensor predicted = model::root_row_covariance(*leaves, covariance, evaluation, kOrder);
  // Draws w ~ N(w_hat, Sigma) into the network, z by the Taylor pass each time.
  const at::Tensor w_hat = output_weights(*leaves);
  const at::Tensor factor = at::linalg_cholesky(covariance);  // [L, F, F]
  const std::int64_t draws = 4000;
  const at::Tensor xi = at::normal(0.0, 1.0, {draws, 2, 9, 1},
                                   at::make_generator<at::CPUGeneratorImpl>(5), at::kDouble);
  std::vector<at::Tensor> samples;
  for (std::int64_t d = 0; d < draws; ++d) {
    set_output_weights(*leaves, w_hat + at::matmul(factor, xi[d]).squeeze(2));
    const at::NoGradGuard no_grad;
    samples.push_back(root_rows(*leaves, evaluation));
  }
  const at::Tensor z = at::stack(samples).permute({1, 3, 0, 2});  // [L, P, draws, S]
  const at::Tensor centred = z - z.mean(2, /*keepdim=*/true);
  const at::Tensor empirical =
      at::matmul(centred.transpose(2, 3), centred) / static_cast<double>(draws - 1);
  // Entries of a sample covariance of 4000 draws: standard error <= sqrt(2 / 4000) of
  // sqrt(C_ss C_rr); 0.1 is four of them.
  const at::Tensor scale = at::diagonal(predicted, 0, 2, 3).sqrt();
  const at::Tensor bound = 0.1 * scale.unsqueeze(3) * scale.unsqueeze(2);
  EXPECT_TRUE(((empirical - predicted).abs() <= bound).all().item<bool>())
      << (empirical - predicted).abs().div(bound).max().item<double>();
}

TEST(LeafLaplace, minibatch_input_noise_is_the_noisy_input_term_of_the_scaled_gram) {
  const model::LeafModel leaves = small_leaves();
  gp::LinearMean mean(gp::LinearMeanOptions{kOrder + 1});
  gp::SparseVariationalGp root(mean.ptr(),
                               gp::RbfKernel(gp::RbfKernelOptions{kOrder + 1, 0.3, 0.5}).ptr(),
                               gp::GaussianLikelihood().ptr(), at::randn({6, kOrder + 1}, kReal));
  root->set_variational_distribution(at::randn({6}, kReal), at::eye(6, kReal));
  const model::LeafData batch = points(25, 6);
  const std::int64_t points_per_leaf = 100;
  const at::Tensor hidden =
      nn::taylor_hidden_streams(leaves->network(), batch.x, batch.t, batch.boxes, kOrder);
  const model::RootData rows = model::root_data(nn::output_derivatives(leaves->network(), hidden));
  const at::Tensor variance =
      model::leaf_input_noise_variance(*leaves, *root, hidden, rows, points_per_leaf);
  // Sigma from Phi_B^T Phi_B (P / B) is the full-data Sigma of the batch repeated P / B times.
  const model::LeafData repeated{batch.x.repeat({1, 4}), batch.t.repeat({1, 4}),
                                 batch.u.repeat({1, 4}), batch.boxes};
  const at::Tensor covariance = model::last_layer_covariance(*leaves, repeated);
  const at::Tensor row_covariance =
      model::root_row_covariance(*leaves, covariance, batch, kOrder).reshape({50, 4, 4});
  const at::Tensor expected = gp::first_order_input_noise_variance(
      gp::posterior_mean_gradient(*root, rows.inputs), row_covariance);
  ASSERT_EQ(variance.sizes(), (std::vector<std::int64_t>{50}));
  EXPECT_LT((variance - expected).abs().max().item<double>(),
            1e-9 * expected.abs().max().item<double>());
  EXPECT_GT(variance.min().item<double>(), 0.0);
}
