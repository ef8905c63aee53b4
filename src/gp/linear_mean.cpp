#include "gp/linear_mean.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>

#include "gp/argument_checks.h"

namespace bhpm::gp {

void validate(const LinearMeanOptions& options) {
  if (options.dimensions < 1)
    throw std::invalid_argument("linear mean: dimensions must be >= 1 (got " +
                                std::to_string(options.dimensions) + ")");
}

LinearMeanImpl::LinearMeanImpl(const LinearMeanOptions& options) : options_(options) {
  validate(options_);
  const auto real = at::TensorOptions().dtype(at::kDouble);
  weight_ = register_parameter("weight", at::zeros({options_.dimensions}, real));
  bias_ = register_parameter("bias", at::zeros({}, real));
}

at::Tensor LinearMeanImpl::forward(const at::Tensor& x) const {
  require_matrix(x, -1, options_.dimensions, "linear mean", "x");
  return at::addmv(bias_.expand({x.size(0)}), x, weight_);
}

void LinearMeanImpl::set_weight(const at::Tensor& weight) {
  require_vector(weight, options_.dimensions, "linear mean", "weight");
  const at::NoGradGuard no_grad;
  weight_.copy_(weight);
}

void LinearMeanImpl::set_bias(double bias) {
  const at::NoGradGuard no_grad;
  bias_.fill_(bias);
}

}  // namespace bhpm::gp
