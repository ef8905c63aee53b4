#pragma once
/// Sparse variational GP (Hensman, Fusi and Lawrence 2013, "Gaussian processes for big
/// data"), the root of phase 3 (paper section 2.2, Eq. 4, and appendix B;
/// docs/training.md, "Root"). M inducing inputs Z [M, D] (registered parameter "inducing_inputs",
/// trainable by default) carry the inducing outputs u = f(Z).
///
/// WHITENED parametrisation: u = mu(Z) + L_zz v with K_zz = L_zz L_zz^T, prior
/// p(v) = N(0, I), variational q(v) = N(m, S), S = L_S L_S^T. Parameters:
/// "variational_mean" m [M] and "variational_cholesky_raw" R [M, M] with
/// L_S = tril(R, -1) + diag(softplus(diag R)) (strict upper part of R unused, diagonal
/// of L_S positive). Why whitened: KL(q || p) needs neither K_zz nor its factor and stays
/// well defined whatever the hyperparameters; q's parameters live on the fixed scale of
/// N(0, I), which is the better-conditioned choice for gradient training (the default of
/// GPflow and GPyTorch); and a step costs the same as unwhitened.
///
/// With A = L_zz^{-1} K_zX [M, N] (L_zz^{-1} formed once per call, M x M, then one
/// matrix product, about twice as fast as triangular solves over all points:
/// docs/training.md, "Speed of training"), the predictive marginals
/// q(f_i) = int p(f_i | u) q(u) du are
///   mean_i = mu(x_i) + A_i . m,  var_i = k(x_i, x_i) - |A_i|^2 + |L_S^T A_i|^2,
/// and, for a minibatch of B of n_total points,
///   KL   = 1/2 (tr S + m^T m - M - log det S),
///   ELBO = (n_total / B) sum_i E_{q(f_i)}[log N(y_i | f_i, sigma^2)] - KL.
/// Every Cholesky goes through robust_cholesky.

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <memory>

#include "gp/exact_gp.h"
#include "gp/gaussian_likelihood.h"
#include "gp/kernel.h"
#include "gp/kmeans.h"
#include "gp/mean.h"
#include "gp/normal_distribution.h"

namespace bhpm::util {
class Rng;
}

namespace bhpm::gp {

struct SparseVariationalGpOptions {
  bool train_inducing_inputs = true;  ///< whether Z requires grad
};

/// The two terms of the ELBO and their difference, each [].
struct ElboTerms {
  at::Tensor expected_log_likelihood;  ///< (n_total / B) sum_i E_q[log p(y_i | f_i)]
  at::Tensor kl;                       ///< KL(q(u) || p(u))
  at::Tensor elbo;                     ///< expected_log_likelihood - kl
};

class SparseVariationalGpImpl : public torch::nn::Module {
 public:
  /// Registers the parts as submodules "mean", "kernel", "likelihood", Z as a copy of
  /// inducing_inputs [M, D] and q(v) = p(v) = N(0, I). Throws std::invalid_argument for
  /// a null part, mean and kernel of different input dimensions or a bad Z.
  SparseVariationalGpImpl(std::shared_ptr<Mean> mean, std::shared_ptr<Kernel> kernel,
                          std::shared_ptr<GaussianLikelihoodImpl> likelihood,
                          const at::Tensor& inducing_inputs,
                          const SparseVariationalGpOptions& options = {});

  /// q(f_i) at x [N, D]: mean [N], variance [N] (clamped at 0), differentiable.
  MarginalNormal marginals(const at::Tensor& x) const;
  /// KL(q(u) || p(u)) [], closed form (equal to KL(q(v) || N(0, I))).
  at::Tensor kl_divergence() const;
  /// ELBO [] for the minibatch x_batch [B, D], y_batch [B] of a data set of n_total >= B
  /// points; differentiable with respect to every parameter. With extra_noise_variance
  /// [B] (>= 0) point i's likelihood variance is sigma^2 + extra_noise_variance_i (a
  /// heteroscedastic likelihood: the noisy-input term of gp/noisy_inputs.h).
  at::Tensor elbo(const at::Tensor& x_batch, const at::Tensor& y_batch, std::int64_t n_total) const;
  ElboTerms elbo_terms(const at::Tensor& x_batch, const at::Tensor& y_batch, std::int64_t n_total,
                       const at::Tensor& extra_noise_variance = {}) const;

  /// Copies the exact GP's mean, kernel and likelihood parameters into this model's
  /// parts (matched by name and shape; a no-op for shared parts) and sets q(u) to the
  /// exact GP's joint posterior at Z (paper appendix B). In whitened coordinates, with
  /// A = L_zz^{-1} K_zX, K = K_XX + sigma^2 I = L L^T, alpha = K^{-1} (y - mu(X)):
  ///   m = A alpha,  S = I - W^T W,  W = L^{-1} A^T,
  /// which avoids the ill-conditioned L_zz^{-1} Sigma L_zz^{-T}. Throws
  /// std::invalid_argument when the parts' parameters do not match.
  void initialize_from(const ExactGpImpl& exact);

  /// Sets q(v) to the maximiser of the ELBO over the whole data set x [N, D], y [N]
  /// (n_total = N) at the current hyperparameters and Z (Titsias 2009, "Variational
  /// learning of inducing variables"): with A = L_zz^{-1} K_zX [M, N], the likelihood
  /// variances d_i = sigma^2 + extra_noise_variance_i [N] (>= 0; none: sigma^2) and
  /// P = I + A D^{-1} A^T = L_P L_P^T,
  ///   S = P^{-1},  m = P^{-1} A D^{-1} (y - mu(X)).
  /// The ELBO is concave in (m, S) and this is its only stationary point; Adam on
  /// minibatches approaches it slowly from its start (docs/training.md, "Training phases").
  /// Not recorded by autograd. Throws std::invalid_argument for inputs of other shapes.
  void set_optimal_variational_distribution(const at::Tensor& x, const at::Tensor& y,
                                            const at::Tensor& extra_noise_variance = {});

  /// alpha = L_zz^{-T} m [M]: the posterior mean of f is mu(x) + k(x, Z) alpha; detached.
  at::Tensor mean_weights() const;
  /// q(u) = N(mu(Z) + L_zz m, L_zz S L_zz^T): mean [M], covariance [M, M].
  MultivariateNormal inducing_distribution() const;
  /// One draw v = m + L_S xi [M] of the whitened inducing variables (xi: M normals from
  /// `rng`); detached. The matching inducing outputs u = mu(Z) + L_zz v are a draw of q(u).
  at::Tensor draw_whitened(util::Rng& rng) const;
  /// One draw u = mu(Z) + L_zz v [M], v as draw_whitened.
  at::Tensor draw_inducing_outputs(util::Rng& rng) const;
  /// Sets q(v) = N(mean [M], lower lower^T) for lower [M, M] lower-triangular (the strict
  /// upper part is ignored) with a finite positive diagonal; not recorded by autograd.
  void set_variational_distribution(const at::Tensor& mean, const at::Tensor& lower);

  std::int64_t inducing_points() const { return inducing_inputs_.size(0); }
  const at::Tensor& inducing_inputs() const { return inducing_inputs_; }
  /// m [M] (the parameter) and L_S [M, M] (built from R, differentiable).
  const at::Tensor& variational_mean() const { return variational_mean_; }
  at::Tensor variational_cholesky() const;
  const std::shared_ptr<Mean>& mean() const { return mean_; }
  const std::shared_ptr<Kernel>& kernel() const { return kernel_; }
  const std::shared_ptr<GaussianLikelihoodImpl>& likelihood() const { return likelihood_; }

 private:
  /// L_zz^{-1} [M, M] at the current Z and hyperparameters.
  at::Tensor inverse_inducing_factor() const;
  /// Predictive marginals without the clamp (the ELBO keeps exact gradients).
  MarginalNormal predict(const at::Tensor& x) const;

  std::shared_ptr<Mean> mean_;
  std::shared_ptr<Kernel> kernel_;
  std::shared_ptr<GaussianLikelihoodImpl> likelihood_;
  at::Tensor inducing_inputs_;
  at::Tensor variational_mean_;
  at::Tensor variational_cholesky_raw_;
};

TORCH_MODULE(SparseVariationalGp);

/// A GP sharing `gp`'s mean, kernel, likelihood (the same modules) and Z, with its own copy
/// of q(u): setting the copy's q(u) leaves `gp`'s as it is (the leave-one-out posteriors of
/// `bhpm calibrate`, the inflated posterior of gp/inflated_posterior.h). Not trained: its own
/// parameters (Z and q(u)) do not require grad.
SparseVariationalGp copy_with_shared_prior(const SparseVariationalGpImpl& gp);

/// The paper's phase-3 start (appendix B): Z = k-means centres of `inputs` [N, D]
/// (inducing.clusters = M, default 128; Z = inputs when N <= M), parts SHARED with
/// `exact` (the same modules, so training the sparse GP moves them), q(u) = the exact
/// GP's posterior at Z (initialize_from). With `cluster_scale` [D] (positive), k-means
/// runs on inputs / cluster_scale and the centres are scaled back, e.g. to cluster in
/// the metric of an ARD kernel's lengthscales.
SparseVariationalGp sparse_gp_from_exact(const ExactGpImpl& exact, const at::Tensor& inputs,
                                         const KMeansOptions& inducing = {},
                                         const SparseVariationalGpOptions& options = {},
                                         const at::Tensor& cluster_scale = {});

}  // namespace bhpm::gp
