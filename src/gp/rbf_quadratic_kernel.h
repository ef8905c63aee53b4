#pragma once
/// The ARD squared exponential plus a quadratic polynomial kernel (docs/training.md,
/// "Root"; docs/predictions.md, "Extrapolation"):
///   k(v, v') = k_rbf(v, v') + c^2 (1 + (v / a) . (v' / a))^2,
/// k_rbf of rbf_kernel.h (submodule "rbf": s^2, l [D]), polynomial variance
/// c^2 = softplus(raw_polynomial_variance) ([]) and polynomial scales
/// a_i = softplus(raw_polynomial_scale_i) ([D]). The second term is Bayesian regression on
/// the monomials of degree <= 2 of v: f may hold any quadratic form of (u, u_x, ..), which
/// covers the products (u u_x, u^2, u_x^2, ..) of most evolution equations, and the prior
/// variance of that part grows like |v / a|^4 away from the data instead of levelling off
/// at s^2. Off the training data the posterior therefore widens with the distance the
/// quadratic part could carry f, where the RBF kernel alone would stay as confident as its
/// in-data residual s^2 (paper section 2.2 uses the RBF kernel only).

#include <torch/nn/pimpl.h>

#include <cstdint>

#include "gp/kernel.h"
#include "gp/rbf_kernel.h"

namespace bhpm::gp {

struct RbfQuadraticKernelOptions {
  std::int64_t dimensions = 1;       ///< D (>= 1): input dimension
  double lengthscale = 1.0;          ///< initial l_i and a_i for every i (> 0, finite)
  double signal_variance = 1.0;      ///< initial s^2 (> 0, finite)
  double polynomial_variance = 1.0;  ///< initial c^2 (> 0, finite)
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const RbfQuadraticKernelOptions& options);

class RbfQuadraticKernelImpl : public Kernel {
 public:
  /// Validates `options` and registers the parts at their initial values.
  explicit RbfQuadraticKernelImpl(const RbfQuadraticKernelOptions& options = {});

  std::int64_t dimensions() const override { return options_.dimensions; }
  /// k_rbf(x1_i, x2_j) + c^2 (1 + (x1_i / a) . (x2_j / a))^2 [N, M] for x1 [N, D], x2 [M, D].
  at::Tensor matrix(const at::Tensor& x1, const at::Tensor& x2) const override;
  at::Tensor batched_weighted_sum(const at::Tensor& x1, const at::Tensor& x2,
                                  const at::Tensor& w) const override;
  /// The RBF part's bumps, and the quadratic part summed over the x2_j as one quadratic form:
  /// sum_j w_j c^2 (1 + t . t_j)^2 = c^2 (S0 + 2 t . S1 + t^T S2 t) with t = v / a, t_j =
  /// x2_j / a, S0 = sum_j w_j, S1 = sum_j w_j t_j, S2 = sum_j w_j t_j t_j^T.
  bool add_weighted_sum(const at::Tensor& x2, const at::Tensor& w,
                        KernelExpansion& expansion) const override;
  /// s^2 + c^2 (1 + |x_i / a|^2)^2 [N] for x [N, D].
  at::Tensor diagonal(const at::Tensor& x) const override;
  std::string name() const override { return "rbf+quadratic"; }
  /// s^2, the bounded part's variance: the scale of the variation that the quadratic
  /// part leaves unexplained (the quadratic part has no supremum).
  at::Tensor prior_variance() const override { return rbf_->signal_variance(); }
  /// l [D] of the RBF part.
  at::Tensor input_scales() const override { return rbf_->lengthscales(); }
  /// The RBF part's, then "polynomial_scales" [D] and "polynomial_variance" [].
  std::vector<Hyperparameter> hyperparameters() const override;
  /// The RBF part's `count` random Fourier features followed by the quadratic part's P
  /// exact ones (polynomial_features): F = count + P. The features keep this kernel alive
  /// and read its current a and c^2.
  std::shared_ptr<const RandomFeatures> random_features(std::int64_t count,
                                                        std::uint64_t seed) const override;

  /// The exact features of the quadratic part, phi(x) [N, P] with P = 1 + 2D + D(D-1)/2
  /// and phi(x_i) . phi(x'_j) = c^2 (1 + (x_i / a) . (x'_j / a))^2: c (1, sqrt(2) w_k,
  /// w_k^2, sqrt(2) w_k w_m for k < m) with w = x / a.
  at::Tensor polynomial_features(const at::Tensor& x) const;
  /// P = 1 + 2D + D(D-1)/2, the number of polynomial_features.
  std::int64_t polynomial_feature_count() const;
  /// The RBF part.
  const RbfKernelImpl& rbf() const { return *rbf_; }
  RbfKernelImpl& rbf() { return *rbf_; }
  /// a [D], differentiable.
  at::Tensor polynomial_scales() const;
  /// c^2 [], differentiable.
  at::Tensor polynomial_variance() const;
  /// Sets a from scales [D] (each > 0, finite); not recorded by autograd.
  void set_polynomial_scales(const at::Tensor& scales);

 private:
  /// c^2 (1 + (x1_i / a) . (x2_j / a))^2 for x1 [N, D], x2 [M, D] -> [N, M].
  at::Tensor polynomial_covariance(const at::Tensor& x1, const at::Tensor& x2) const;
  /// polynomial_features for x [..., D] -> [..., P], unchecked.
  at::Tensor feature_map(const at::Tensor& x) const;

  RbfQuadraticKernelOptions options_;
  RbfKernel rbf_{nullptr};
  at::Tensor raw_polynomial_scale_;
  at::Tensor raw_polynomial_variance_;
};

TORCH_MODULE(RbfQuadraticKernel);

}  // namespace bhpm::gp
