#pragma once
/// Gaussian likelihood of the root GP (paper section 2.2: "a Gaussian likelihood with
/// variance sigma_f^2"): p(y | f) = N(y | f, sigma^2), with
///   sigma^2 = variance_floor + softplus(raw_variance)
/// (registered parameter "raw_variance", shape []). The floor (default 1e-8) keeps
/// 1 / sigma^2 finite however far training pushes raw_variance down.

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

namespace bhpm::gp {

struct GaussianLikelihoodOptions {
  double variance = 0.01;        ///< initial sigma^2 (> variance_floor, finite)
  double variance_floor = 1e-8;  ///< lower bound of sigma^2 (>= 0, finite)
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const GaussianLikelihoodOptions& options);

class GaussianLikelihoodImpl : public torch::nn::Module {
 public:
  explicit GaussianLikelihoodImpl(const GaussianLikelihoodOptions& options = {});

  /// sigma^2 [] (0-dim), differentiable with respect to raw_variance.
  at::Tensor variance() const;
  /// Sets sigma^2 (> variance_floor, finite); not recorded by autograd.
  void set_variance(double variance);

  /// log N(y_i | f_i, sigma^2) [N] for y, f [N].
  at::Tensor log_prob(const at::Tensor& y, const at::Tensor& f) const;
  /// E_{f_i ~ N(mean_i, variance_i)} [log N(y_i | f_i, sigma_i^2)] [N] in closed form:
  ///   log N(y_i | mean_i, sigma_i^2) - variance_i / (2 sigma_i^2),
  /// the data term of the sparse GP's ELBO (Hensman et al. 2013). y, mean, variance [N];
  /// sigma_i^2 = sigma^2 + extra_variance_i with extra_variance [N] (>= 0, e.g. the
  /// noisy-input term of gp/noisy_inputs.h), or sigma^2 when it is undefined.
  at::Tensor expected_log_prob(const at::Tensor& y, const at::Tensor& mean,
                               const at::Tensor& variance,
                               const at::Tensor& extra_variance = {}) const;

  const GaussianLikelihoodOptions& options() const { return options_; }

 private:
  GaussianLikelihoodOptions options_;
  at::Tensor raw_variance_;
};

TORCH_MODULE(GaussianLikelihood);

}  // namespace bhpm::gp
