#include "solve/polynomial_samples.h"

#include <ATen/ATen.h>

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
  return selected;
}

}  // namespace bhpm::solve
