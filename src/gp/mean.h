#pragma once
/// The mean-function interface of the GP (paper section 2.2: f ~ GP(mu_f, k_f)). A mean
/// is a torch module whose parameters an optimiser trains; a GP holds a
/// `std::shared_ptr<Mean>`, so any implementation fits (LinearMeanImpl is the paper's).

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include <cstdint>

namespace bhpm::gp {

class Mean : public torch::nn::Module {
 public:
  /// Input dimension D the mean accepts.
  virtual std::int64_t dimensions() const = 0;
  /// mu(x_i) [N] for x [N, D], differentiable.
  virtual at::Tensor forward(const at::Tensor& x) const = 0;
};

}  // namespace bhpm::gp
