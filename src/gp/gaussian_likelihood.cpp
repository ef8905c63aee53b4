#include "gp/gaussian_likelihood.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gp/argument_checks.h"
#include "gp/softplus.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::gp {

namespace {
const char* const kLikelihoodName = "gaussian likelihood";

void require_variance_above_floor(double variance, double floor) {
  if (!(std::isfinite(variance) && variance > floor))
    throw std::invalid_argument(
        "gaussian likelihood: variance must be finite and > "
        "variance_floor " +
        util::format_significant(floor, 6) + " (got " + util::format_significant(variance, 6) +
        ")");
}
}  // namespace

void validate(const GaussianLikelihoodOptions& options) {
  util::require_non_negative(options.variance_floor, "gaussian likelihood", "variance_floor");
  require_variance_above_floor(options.variance, options.variance_floor);
}

GaussianLikelihoodImpl::GaussianLikelihoodImpl(const GaussianLikelihoodOptions& options)
    : options_(options) {
  validate(options_);
  raw_variance_ = register_parameter(
      "raw_variance",
      at::scalar_tensor(inverse_softplus(options_.variance - options_.variance_floor, "variance"),
                        at::TensorOptions().dtype(at::kDouble)));
}

at::Tensor GaussianLikelihoodImpl::variance() const {
  return options_.variance_floor + at::softplus(raw_variance_);
}

void GaussianLikelihoodImpl::set_variance(double variance) {
  require_variance_above_floor(variance, options_.variance_floor);
  const at::NoGradGuard no_grad;
  raw_variance_.fill_(inverse_softplus(variance - options_.variance_floor, "variance"));
}

at::Tensor GaussianLikelihoodImpl::log_prob(const at::Tensor& y, const at::Tensor& f) const {
  require_vector(y, -1, kLikelihoodName, "y");
  require_vector(f, y.size(0), kLikelihoodName, "f");
  const at::Tensor sigma2 = variance();
  return -0.5 * (std::log(2.0 * M_PI) + at::log(sigma2) + (y - f).square() / sigma2);
}

at::Tensor GaussianLikelihoodImpl::expected_log_prob(const at::Tensor& y, const at::Tensor& mean,
                                                     const at::Tensor& variance,
                                                     const at::Tensor& extra_variance) const {
  require_vector(y, -1, kLikelihoodName, "y");
  require_vector(variance, y.size(0), kLikelihoodName, "variance");
  if (extra_variance.defined())
    require_vector(extra_variance, y.size(0), kLikelihoodName, "extra_variance");
  const at::Tensor noise =
      extra_variance.defined() ? this->variance() + extra_variance : this->variance();
  return -0.5 * (at::log(2.0 * M_PI * noise) + ((y - mean).square() + variance) / noise);
}

}  // namespace bhpm::gp
