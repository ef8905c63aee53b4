#pragma once
/// ARD squared-exponential ("exponentiated quadratic") kernel, the root's covariance
/// (paper section 2.2 and appendix B):
///   k(v, v') = s^2 exp(-1/2 sum_i (v_i - v'_i)^2 / l_i^2),  i = 1..D,
/// with signal variance s^2 = softplus(raw_signal_variance) (registered parameter
/// "raw_signal_variance", shape []) and lengthscales l_i = softplus(raw_lengthscale_i)
/// ("raw_lengthscale", shape [D]).

#include <torch/nn/pimpl.h>

#include <cstdint>

#include "gp/kernel.h"

namespace bhpm::gp {

struct RbfKernelOptions {
  std::int64_t dimensions = 1;   ///< D (>= 1): input dimension
  double lengthscale = 1.0;      ///< initial l_i for every i (> 0, finite)
  double signal_variance = 1.0;  ///< initial s^2 (> 0, finite)
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const RbfKernelOptions& options);

class RbfKernelImpl : public Kernel {
 public:
  /// Validates `options` and registers the raw parameters at their initial values.
  explicit RbfKernelImpl(const RbfKernelOptions& options = {});

  std::int64_t dimensions() const override { return options_.dimensions; }
  /// s^2 exp(-|x1_i / l - x2_j / l|^2 / 2) [N, M] for x1 [N, D], x2 [M, D] (double).
  at::Tensor matrix(const at::Tensor& x1, const at::Tensor& x2) const override;
  at::Tensor batched_weighted_sum(const at::Tensor& x1, const at::Tensor& x2,
                                  const at::Tensor& w) const override;
  /// Sets the bumps s^2 w_j exp(-|v - x2_j|^2_l / 2) of `expansion` (false where it has some).
  bool add_weighted_sum(const at::Tensor& x2, const at::Tensor& w,
                        KernelExpansion& expansion) const override;
  /// s^2 repeated [N] for x [N, D].
  at::Tensor diagonal(const at::Tensor& x) const override;
  std::string name() const override { return "rbf"; }
  /// s^2.
  at::Tensor prior_variance() const override { return signal_variance(); }
  /// l [D].
  at::Tensor input_scales() const override { return lengthscales(); }
  /// "lengthscales" [D] and "signal_variance" [].
  std::vector<Hyperparameter> hyperparameters() const override;
  /// `count` random Fourier features (gp/fourier_features.h) at the current l and s^2.
  std::shared_ptr<const RandomFeatures> random_features(std::int64_t count,
                                                        std::uint64_t seed) const override;

  /// l [D], differentiable with respect to raw_lengthscale.
  at::Tensor lengthscales() const;
  /// s^2 [] (0-dim), differentiable with respect to raw_signal_variance.
  at::Tensor signal_variance() const;
  /// Sets l from lengthscales [D] (each > 0, finite); not recorded by autograd.
  void set_lengthscales(const at::Tensor& lengthscales);
  /// Sets every l_i to `lengthscale` (> 0, finite).
  void set_lengthscales(double lengthscale);
  /// Sets s^2 (> 0, finite).
  void set_signal_variance(double signal_variance);

  const RbfKernelOptions& options() const { return options_; }

 private:
  /// k for x1 [N, D], x2 [M, D] -> [N, M].
  at::Tensor covariance(const at::Tensor& x1, const at::Tensor& x2) const;

  RbfKernelOptions options_;
  at::Tensor raw_lengthscale_;
  at::Tensor raw_signal_variance_;
};

TORCH_MODULE(RbfKernel);

}  // namespace bhpm::gp
