#include "solve/polynomial_samples.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace bhpm::solve {

PolynomialSamples::PolynomialSamples(pde::TermLibrary library, at::Tensor coefficients)
    : library_(std::move(library)), coefficients_(std::move(coefficients)) {
  if (!coefficients_.defined() || coefficients_.dim() != 2 || coefficients_.size(0) < 1 ||
      coefficients_.size(1) != library_.size() || coefficients_.scalar_type() != at::kDouble)
    throw std::invalid_argument("polynomial samples: coefficients must be a double [S, " +
                                std::to_string(library_.size()) + "] tensor with S >= 1");
  if (!at::isfinite(coefficients_).all().item<bool>())
    throw std::invalid_argument("polynomial samples: coefficients must be finite");
  copy_coefficient_values();
}

void PolynomialSamples::copy_coefficient_values() {
  const at::Tensor values = coefficients_.to(at::kCPU).contiguous();
  coefficient_values_.assign(values.data_ptr<double>(), values.data_ptr<double>() + values.numel());
}

void PolynomialSamples::evaluate_values(std::int64_t s, const double* v, std::int64_t points,
                                        double /*t*/, double* out) const {
  if (s < 0 || s >= count())
    throw std::invalid_argument("polynomial samples: no sample " + std::to_string(s) + " of " +
                                std::to_string(count()));
  std::fill(out, out + points, 0.0);
  const double* xi = coefficient_values_.data() + s * library_.size();
  for (std::size_t j = 0; j < library_.exponents.size(); ++j) {
    if (xi[j] == 0.0) continue;
    const std::vector<int>& e = library_.exponents[j];
    for (std::int64_t p = 0; p < points; ++p) {
      double theta = 1.0;
      for (std::size_t d = 0; d < e.size(); ++d)
        for (int power = 0; power < e[d]; ++power)
          theta *= v[static_cast<std::int64_t>(d) * points + p];
      out[p] += theta * xi[j];
    }
  }
}

at::Tensor PolynomialSamples::evaluate(const at::Tensor& v) const {
  if (v.dim() != 3 || v.size(0) != count() || v.size(2) != dimensions())
    throw std::invalid_argument("polynomial samples: v must be [" + std::to_string(count()) +
                                ", P, " + std::to_string(dimensions()) + "]");
  const std::int64_t S = v.size(0), P = v.size(1);
  const at::Tensor theta = library_.evaluate(v.reshape({S * P, dimensions()})).reshape({S, P, -1});
  return (theta * coefficients_.to(v.device()).unsqueeze(1)).sum(2);
}

std::shared_ptr<const gp::FunctionSamples> PolynomialSamples::select(
    const at::Tensor& members) const {
  auto selected = std::make_shared<PolynomialSamples>(*this);
  selected->coefficients_ = coefficients_.index_select(0, members.to(coefficients_.device()));
  selected->copy_coefficient_values();
  return selected;
}

}  // namespace bhpm::solve
