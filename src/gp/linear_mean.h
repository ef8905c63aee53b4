#pragma once
/// Linear mean function of the root GP (paper section 2.2 and appendix B): mu(v) = w . v + b, with
/// weights w [D] (registered parameter "weight") and bias b [] ("bias"), both unconstrained and
/// initially zero. For the root's v = (u, u_x, .., d^K u/dx^K), w . v is a linear differential
/// operator.

#include <torch/nn/pimpl.h>

#include <cstdint>

#include "gp/mean.h"

namespace bhpm::gp {

struct LinearMeanOptions {
  std::int64_t dimensions = 1;  ///< D (>= 1): input dimension
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const LinearMeanOptions& options);

class LinearMeanImpl : public Mean {
 public:
  explicit LinearMeanImpl(const LinearMeanOptions& options = {});

  std::int64_t dimensions() const override { return options_.dimensions; }
  /// x w + b [N] for x [N, D] (double).
  at::Tensor forward(const at::Tensor& x) const override;
  /// Adds b + w . x (no quadratic term).
  bool add_to(KernelExpansion& expansion) const override;
  /// " %+.4g name" per input, then " %+.4g" of the bias.
  std::string formula(const std::vector<std::string>& variables) const override;
  /// "mean_weight" [D] (symbol w) and "mean_bias" [] (symbol b).
  std::vector<Hyperparameter> hyperparameters() const override;

  /// w [D] and b [] (the registered parameters themselves).
  const at::Tensor& weight() const { return weight_; }
  const at::Tensor& bias() const { return bias_; }
  /// Sets w from weight [D] (double); not recorded by autograd.
  void set_weight(const at::Tensor& weight);
  void set_bias(double bias);

  const LinearMeanOptions& options() const { return options_; }

 private:
  LinearMeanOptions options_;
  at::Tensor weight_;
  at::Tensor bias_;
};

TORCH_MODULE(LinearMean);

}  // namespace bhpm::gp
