#pragma once
/// The covariance-function interface of the GP (paper section 2.2: f ~ GP(mu_f, k_f)).
/// A kernel is a torch module: its (raw) hyperparameters are registered parameters, so
/// an optimiser trains them and a GP that holds a `std::shared_ptr<Kernel>` works with
/// any implementation (RbfKernelImpl is the paper's; kernel_table.h names them). Callers
/// outside gp/ use this interface only: never a cast to an implementation.

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gp/hyperparameter.h"
#include "gp/random_features.h"

namespace bhpm::gp {

struct KernelExpansion;

class Kernel : public torch::nn::Module {
 public:
  /// Input dimension D the kernel accepts (K + 1 for the root's v = (u, .., d^K u/dx^K)).
  virtual std::int64_t dimensions() const = 0;
  /// Cross-covariance k(x1_i, x2_j) [N, M] for x1 [N, D], x2 [M, D], differentiable.
  virtual at::Tensor matrix(const at::Tensor& x1, const at::Tensor& x2) const = 0;
  /// A batch of GP mean updates sum_j k(x1_bi, x2_bj) w_bj [B, N] for x1 [B, N, D],
  /// x2 [B, M, D], w [B, M] (S operator samples evaluated together, gp/conditioned_gp.h),
  /// with as few passes over the [B, N, M] covariances as the kernel allows; differentiable.
  virtual at::Tensor batched_weighted_sum(const at::Tensor& x1, const at::Tensor& x2,
                                          const at::Tensor& w) const = 0;
  /// Adds the function sum_j k(., x2_j) w_j (x2 [M, D], w [M]) to `expansion`
  /// (gp/kernel_expansion.h: squared-exponential bumps plus a quadratic polynomial, evaluated
  /// without tensors) and returns true where the kernel has that form; returns false, with
  /// `expansion` unchanged, where it does not (the default) or where `expansion` has bumps
  /// already. The current hyperparameters are copied: later changes do not reach it.
  virtual bool add_weighted_sum(const at::Tensor& /*x2*/, const at::Tensor& /*w*/,
                                KernelExpansion& /*expansion*/) const {
    return false;
  }
  /// k(x_i, x_i) [N] for x [N, D] without forming the matrix.
  virtual at::Tensor diagonal(const at::Tensor& x) const = 0;
  /// The name kernel_table.h knows the kernel by (e.g. "rbf").
  virtual std::string name() const = 0;
  /// The prior variance [] (0-dim, differentiable) of k's bounded part k_b: for a
  /// stationary kernel sup_v k(v, v) = s^2, the variance of f far from any data, the scale
  /// of "knows nothing"; for a kernel with an unbounded part, that of the rest.
  virtual at::Tensor prior_variance() const = 0;
  /// [D]: the length over which k varies along each input (for a stationary kernel its
  /// lengthscales), used to measure distances between inputs in the kernel's metric.
  virtual at::Tensor input_scales() const = 0;
  /// The constrained hyperparameters, for files and progress lines.
  virtual std::vector<Hyperparameter> hyperparameters() const = 0;
  /// Random features of k at its current hyperparameters (gp/random_features.h): about
  /// `count` random Fourier features of its stationary part, drawn from `seed`, plus the
  /// exact features of any finite-rank part; what pathwise samples need.
  virtual std::shared_ptr<const RandomFeatures> random_features(std::int64_t count,
                                                                std::uint64_t seed) const = 0;
};

}  // namespace bhpm::gp
