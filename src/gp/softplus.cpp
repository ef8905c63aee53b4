#include "gp/softplus.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "util/number_format.h"

namespace bhpm::gp {

at::Tensor inverse_softplus(const at::Tensor& value, const char* what) {
  const at::Tensor finite_positive = at::isfinite(value).logical_and(value > 0.0);
  if (!finite_positive.all().item<bool>())
    throw std::invalid_argument(std::string(what) + " must be finite and > 0 (got min " +
                                util::format_significant(value.min().item<double>(), 6) + ")");
  return value + at::log(-at::expm1(-value));
}

double inverse_softplus(double value, const char* what) {
  if (!(std::isfinite(value) && value > 0.0))
    throw std::invalid_argument(std::string(what) + " must be finite and > 0 (got " +
                                util::format_significant(value, 6) + ")");
  return value + std::log(-std::expm1(-value));
}

}  // namespace bhpm::gp
