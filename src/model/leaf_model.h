#pragma once
/// The leaves of a BHPM model (paper section 2.2): L sine MLPs u_i(x, t; theta_i) and,
/// per leaf, the scale sigma_i of its i.i.d. Gaussian likelihood (Eq. 2), learned as
/// log sigma_i.

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include "nn/sine_mlp.h"

namespace bhpm::model {

struct LeafModelOptions {
  nn::SineMlpOptions network;  ///< network.leaves = L
  double initial_noise = 0.1;  ///< sigma_i at the start (> 0)
};

/// Throws util::OptionError naming the field (the network's as nn::validate names them),
/// its value and the rule.
void validate(const LeafModelOptions& options);

/// The Gaussian negative log-likelihood of each measurement,
///   log sigma + 0.5 log(2 pi) + (u_hat - u)^2 / (2 sigma^2),
/// with log sigma broadcast against predicted and measured (the leaves' Eq. 2).
at::Tensor gaussian_negative_log_likelihood(const at::Tensor& log_sigma,
                                            const at::Tensor& predicted,
                                            const at::Tensor& measured);

class LeafModelImpl : public torch::nn::Module {
 public:
  /// Throws as validate(options).
  explicit LeafModelImpl(const LeafModelOptions& options);

  /// sigma [L].
  at::Tensor noise_scale() const;
  /// Sets sigma [L] (positive, finite; no graph): for the profile step of phase 1.
  void set_noise_scale(const at::Tensor& sigma);

  /// Negative log-likelihood per point, per leaf [L]:
  ///   mean_j [ log sigma_i + 0.5 log(2 pi) + (u_hat_ij - u_ij)^2 / (2 sigma_i^2) ],
  /// for predictions u and measurements u_hat [L, B]. Times n_st it is -L_i^u of Eq. 2.
  at::Tensor negative_log_likelihood(const at::Tensor& predicted, const at::Tensor& measured) const;

  nn::SineMlpImpl& network() { return *network_; }
  const nn::SineMlpImpl& network() const { return *network_; }
  const LeafModelOptions& options() const { return options_; }

 private:
  LeafModelOptions options_;
  nn::SineMlp network_{nullptr};
  at::Tensor log_noise_;  ///< [L]
};

TORCH_MODULE(LeafModel);

}  // namespace bhpm::model
