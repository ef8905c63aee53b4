#pragma once
/// Exact GP regression, the root of phase 2 (paper section 2.2, Eq. 3, and appendix B:
/// the full GP fitted on a subsample of at most 1024 root inputs by marginal
/// likelihood). With training inputs X [N, D], targets y [N], mean mu, kernel k and
/// Gaussian likelihood variance sigma^2:
///   K = K_XX + sigma^2 I = L L^T,  r = y - mu(X),  alpha = K^{-1} r,
///   log p(y | X) = -1/2 r^T alpha - sum_i log L_ii - N/2 log(2 pi)          (Eq. 3)
/// and the posterior of the latent f at test inputs X* [P, D]:
///   mean = mu(X*) + K_*X alpha,  cov = K_** - V^T V,  V = L^{-1} K_X*.
/// (Add sigma^2 to the variance for a noisy observation y*.) The factor L is recomputed
/// on every call, so results follow the current hyperparameters; every Cholesky goes
/// through robust_cholesky.
///
/// Parts are held by shared pointer and registered as submodules "mean", "kernel" and
/// "likelihood", so `parameters()` lists every hyperparameter and a part may be shared
/// with another model.

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <memory>
#include <utility>

#include "gp/gaussian_likelihood.h"
#include "gp/kernel.h"
#include "gp/mean.h"
#include "gp/normal_distribution.h"

namespace bhpm::gp {

/// The factorisation behind every exact-GP quantity.
struct ExactGpFactor {
  at::Tensor lower;              ///< L [N, N], L L^T = K_XX + sigma^2 I (+ jitter)
  at::Tensor alpha;              ///< K^{-1} (y - mu(X)) [N]
  double relative_jitter = 0.0;  ///< jitter robust_cholesky needed (0: none)
};

class ExactGpImpl : public torch::nn::Module {
 public:
  /// Throws std::invalid_argument for a null part, mean and kernel of different input
  /// dimensions, or data that are not x [N, D], y [N] (double, N >= 1).
  ExactGpImpl(std::shared_ptr<Mean> mean, std::shared_ptr<Kernel> kernel,
              std::shared_ptr<GaussianLikelihoodImpl> likelihood, const at::Tensor& x,
              const at::Tensor& y);

  /// Replaces the training data (same checks as the constructor).
  void set_train_data(const at::Tensor& x, const at::Tensor& y);

  /// log p(y | X) [] (Eq. 3), differentiable with respect to every hyperparameter.
  at::Tensor log_marginal_likelihood() const;
  /// L and alpha at the current hyperparameters.
  ExactGpFactor factorize() const;
  /// Joint posterior of f at x_star [P, D]: mean [P], covariance [P, P].
  MultivariateNormal posterior(const at::Tensor& x_star) const;
  /// Posterior marginals of f at x_star [P, D]: mean [P], variance [P] (clamped at 0).
  MarginalNormal marginals(const at::Tensor& x_star) const;
  /// The same with `factor` = factorize() at the current hyperparameters and data, for
  /// many calls without refactorising.
  MarginalNormal marginals(const at::Tensor& x_star, const ExactGpFactor& factor) const;

  const at::Tensor& train_inputs() const { return x_; }
  const std::shared_ptr<Mean>& mean() const { return mean_; }
  const std::shared_ptr<Kernel>& kernel() const { return kernel_; }
  const std::shared_ptr<GaussianLikelihoodImpl>& likelihood() const { return likelihood_; }

 private:
  /// V = L^{-1} K_X* [N, P] and the posterior mean [P].
  std::pair<at::Tensor, at::Tensor> project(const ExactGpFactor& factor,
                                            const at::Tensor& x_star) const;

  std::shared_ptr<Mean> mean_;
  std::shared_ptr<Kernel> kernel_;
  std::shared_ptr<GaussianLikelihoodImpl> likelihood_;
  at::Tensor x_;
  at::Tensor y_;
};

TORCH_MODULE(ExactGp);

}  // namespace bhpm::gp
