#pragma once
/// A GP conditioned on noise-free observations (paper section 2.3, Eq. 5): with prior mean
/// mu and kernel k, conditioning inputs V_c [n, D] and values f_c [n],
///   mu_c(v)    = mu(v) + k_vc K_cc^{-1} (f_c - mu(V_c)),
///   k_c(v, v') = k(v, v') - k_vc K_cc^{-1} k_cv',
/// with K_cc = L L^T factored by robust_cholesky (conditioning inputs that nearly coincide
/// get jitter instead of a failure). The paper's Algorithm 1 starts from the root's prior
/// conditioned on its inducing inputs Z with a draw of q(u), then adds conditioning points
/// until the expected variance L_c is small enough for mu_c to stand for a sample of q(f);
/// ConditionedSamples holds S such means as operator samples.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "gp/function_samples.h"
#include "gp/kernel.h"
#include "gp/kernel_expansion.h"
#include "gp/mean.h"
#include "gp/normal_distribution.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::util {
class Rng;
}

namespace bhpm::gp {

class ConditionedGp {
 public:
  /// Conditions the prior (mean, kernel) on f(inputs [n, D]) = values [n], n >= 1. Throws
  /// std::invalid_argument for null parts or bad shapes, CholeskyError when K_cc cannot
  /// be factored.
  ConditionedGp(std::shared_ptr<Mean> mean, std::shared_ptr<Kernel> kernel,
                const at::Tensor& inputs, const at::Tensor& values);

  /// mu_c(v) [P] for v [P, D]; differentiable with respect to v.
  at::Tensor mean(const at::Tensor& v) const;
  /// k_c(v_p, v_p) [P] (clamped at 0) for v [P, D].
  at::Tensor variance(const at::Tensor& v) const;
  /// Joint posterior at v [P, D]: mean [P], covariance [P, P].
  MultivariateNormal posterior(const at::Tensor& v) const;
  /// One joint draw [P] of f(v) from the posterior (robust_cholesky of its covariance).
  at::Tensor sample(const at::Tensor& v, util::Rng& rng) const;
  /// This GP further conditioned on f(new_inputs [m, D]) = new_values [m].
  ConditionedGp extended(const at::Tensor& new_inputs, const at::Tensor& new_values) const;

  std::int64_t size() const { return inputs_.size(0); }
  std::int64_t dimensions() const { return kernel_->dimensions(); }
  const at::Tensor& inputs() const { return inputs_; }
  const at::Tensor& values() const { return values_; }
  /// K_cc^{-1} (f_c - mu(V_c)) [n]: mu_c(v) = mu(v) + k(v, V_c) weights.
  const at::Tensor& weights() const { return alpha_; }
  const std::shared_ptr<Mean>& prior_mean() const { return mean_; }
  const std::shared_ptr<Kernel>& kernel() const { return kernel_; }
  /// L [n, n] with L L^T = K_cc (+ jitter).
  const at::Tensor& factor() const { return lower_; }

 private:
  std::shared_ptr<Mean> mean_;
  std::shared_ptr<Kernel> kernel_;
  at::Tensor inputs_;  ///< V_c [n, D]
  at::Tensor values_;  ///< f_c [n]
  at::Tensor lower_;   ///< L [n, n], L L^T = K_cc (+ jitter)
  at::Tensor alpha_;   ///< K_cc^{-1} (f_c - mu(V_c)) [n]
};

/// k_c(v_p, v_p) [P] of the prior conditioned on `inputs` [n, D] (values do not enter):
/// k(v, v) - |L^{-1} k_cv|^2, differentiable with respect to `inputs` and v (Algorithm 1
/// moves new conditioning inputs down its gradient).
at::Tensor conditioned_variance(const Kernel& kernel, const at::Tensor& inputs,
                                const at::Tensor& v);

/// The start of Algorithm 1 for a sparse GP: its prior (mean, kernel) conditioned on the
/// inducing inputs Z with one draw u ~ q(u) (SparseVariationalGpImpl::draw_inducing_outputs),
/// so mu_c(v) = mu(v) + k(v, Z) K_zz^{-1} (u - mu(Z)).
ConditionedGp condition_on_inducing_draw(const SparseVariationalGpImpl& gp, util::Rng& rng);

/// S conditioned GPs (one per operator sample) evaluated through their means mu_c.
/// Members that share one prior (mean and kernel objects, as Algorithm 1's do) are
/// evaluated in one batched kernel product: their conditioning inputs padded to the
/// largest set, n_max, with zero weights on the padding rows, so
///   mu_c,s(v_s) = mu(v_s) + k(v_s, V_s) alpha_s  for all s at once ([S, P, n_max]).
/// Where the shared prior is a linear mean with an RBF (or RBF plus quadratic) kernel on the
/// CPU, each mu_c,s is also held as a gp::KernelExpansion (expansion), and the members
/// evaluate plain values one by one through it, so a spectral solve steps them without
/// tensors.
class ConditionedSamples final : public FunctionSamples {
 public:
  /// Throws std::invalid_argument for an empty list or members of different D.
  explicit ConditionedSamples(std::vector<ConditionedGp> members);
  std::int64_t count() const override { return static_cast<std::int64_t>(members_.size()); }
  std::int64_t dimensions() const override { return members_.front().dimensions(); }
  /// mu_c,s(v[s]) [S, P] for v [S, P, D].
  at::Tensor evaluate(const at::Tensor& v) const override;
  /// mu_c,s's kernel expansion, or null (see the class comment).
  const KernelExpansion* expansion(std::int64_t s) const override;
  /// The members' conditioned GPs.
  std::shared_ptr<const FunctionSamples> select(const at::Tensor& members) const override;
  const std::vector<ConditionedGp>& members() const { return members_; }

 private:
  std::vector<ConditionedGp> members_;
  bool shared_prior_ = false;                ///< every member has the first one's mean and kernel
  at::Tensor padded_inputs_;                 ///< [S, n_max, D] (shared prior only)
  at::Tensor padded_weights_;                ///< [S, n_max], 0 on padding rows (shared prior only)
  std::vector<KernelExpansion> expansions_;  ///< [S] mu_c,s, or empty (see the class comment)
};

}  // namespace bhpm::gp
