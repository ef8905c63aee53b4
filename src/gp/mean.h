#pragma once
/// The mean-function interface of the GP (paper section 2.2: f ~ GP(mu_f, k_f)). A mean
/// is a torch module whose parameters an optimiser trains; a GP holds a
/// `std::shared_ptr<Mean>`, so any implementation fits (LinearMeanImpl is the paper's).
/// Callers outside gp/ use this interface only: never a cast to an implementation.

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gp/hyperparameter.h"

namespace bhpm::gp {

struct KernelExpansion;

class Mean : public torch::nn::Module {
 public:
  /// Input dimension D the mean accepts.
  virtual std::int64_t dimensions() const = 0;
  /// mu(x_i) [N] for x [N, D], differentiable.
  virtual at::Tensor forward(const at::Tensor& x) const = 0;
  /// Adds mu to `expansion` (gp/kernel_expansion.h) and returns true where mu is a
  /// polynomial of degree <= 2 in x; returns false, with `expansion` unchanged, otherwise (the
  /// default). The current parameters are copied.
  virtual bool add_to(KernelExpansion& /*expansion*/) const { return false; }
  /// The mean as a formula in the named inputs (variables [D]), e.g.
  /// "+0.1 u_xx -0.98 u_x +0.002" for a linear mean; numbers as "%+.4g".
  virtual std::string formula(const std::vector<std::string>& variables) const = 0;
  /// The hyperparameters, for files and progress lines.
  virtual std::vector<Hyperparameter> hyperparameters() const = 0;
};

}  // namespace bhpm::gp
