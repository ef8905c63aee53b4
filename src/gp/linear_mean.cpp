#include "gp/linear_mean.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>

#include "gp/argument_checks.h"
#include "gp/kernel_expansion.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::gp {

void validate(const LinearMeanOptions& options) {
  util::require_at_least(options.dimensions, 1, "linear mean", "dimensions");
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

bool LinearMeanImpl::add_to(KernelExpansion& expansion) const {
  const std::int64_t d = options_.dimensions;
  expansion.add_polynomial(bias_, weight_, at::zeros({d, d}, weight_.options()));
  return true;
}

std::string LinearMeanImpl::formula(const std::vector<std::string>& variables) const {
  if (static_cast<std::int64_t>(variables.size()) != options_.dimensions)
    throw std::invalid_argument("linear mean: formula needs " +
                                std::to_string(options_.dimensions) + " variable names (got " +
                                std::to_string(variables.size()) + ")");
  const at::Tensor w = weight_.detach();
  std::string text;
  for (std::int64_t m = 0; m < w.size(0); ++m)
    text += " " + util::format_signed(w[m].item<double>()) + " " + variables[m];
  return text + " " + util::format_signed(bias_.item<double>());
}

std::vector<Hyperparameter> LinearMeanImpl::hyperparameters() const {
  return {{"mean_weight", "w", weight_.detach(), "variable", "u per time per variable",
           "w of the mean w . v + b"},
          {"mean_bias", "b", bias_.detach(), "", "u per time", "b of the mean w . v + b"}};
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
