#include "solve/shifted_samples.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <utility>
#include <vector>

namespace bhpm::solve {

namespace {

/// g's monomials with a nonzero coefficient: the ones worth evaluating at every step.
OperatorShift nonzero_terms(const OperatorShift& shift) {
  OperatorShift kept{shift.library, {}, shift.description};
  kept.library.exponents.clear();
  kept.library.names.clear();
  std::vector<double> coefficients;
  for (std::int64_t j = 0; j < shift.library.size(); ++j) {
    const double c = shift.coefficients[j].item<double>();
    if (c == 0.0) continue;
    kept.library.exponents.push_back(shift.library.exponents[static_cast<std::size_t>(j)]);
    kept.library.names.push_back(shift.library.names[static_cast<std::size_t>(j)]);
    coefficients.push_back(c);
  }
  kept.coefficients = at::tensor(coefficients, at::kDouble);
  return kept;
}

}  // namespace

void validate(const OperatorShift& shift) {
  const at::Tensor& c = shift.coefficients;
  if (!c.defined() || c.dim() != 1 || c.size(0) != shift.library.size() ||
      c.scalar_type() != at::kDouble)
    throw std::invalid_argument("operator shift: coefficients must be a double [" +
                                std::to_string(shift.library.size()) + "] tensor");
  if (!at::isfinite(c).all().item<bool>())
    throw std::invalid_argument("operator shift: coefficients must be finite");
}

at::Tensor term_coefficients(const pde::TermLibrary& library, const at::Tensor& terms,
                             const at::Tensor& v, const at::Tensor& values) {
  if (terms.dim() != 2 || terms.size(1) != library.size() || values.dim() != 1 ||
      values.size(0) != v.size(0) || v.size(0) < terms.size(0))
    throw std::invalid_argument("term coefficients: terms must be [K, " +
                                std::to_string(library.size()) +
                                "] and values [P] at v [P, D] with P >= K");
  const at::Tensor columns = at::matmul(library.evaluate(v), terms.t());  // [P, K]
  return std::get<0>(at::linalg_lstsq(columns, values.unsqueeze(1))).reshape({-1});
}

ShiftedSamples::ShiftedSamples(std::shared_ptr<const gp::FunctionSamples> samples,
                               std::shared_ptr<const OperatorShift> shift)
    : AddedTermSamples(std::move(samples)) {
  if (!shift) throw std::invalid_argument("shifted samples: no shift given");
  validate(*shift);
  if (static_cast<std::int64_t>(shift->library.variables.size()) != dimensions())
    throw std::invalid_argument("shifted samples: the shift reads " +
                                std::to_string(shift->library.variables.size()) +
                                " variables, the samples " + std::to_string(dimensions()));
  terms_ = nonzero_terms(*shift);
}

at::Tensor ShiftedSamples::added_term(const at::Tensor& v) const {
  const std::int64_t S = v.size(0), P = v.size(1);
  if (terms_.library.size() == 0) return at::zeros({S, P}, v.options());
  const at::Tensor theta =
      terms_.library.evaluate(v.reshape({S * P, dimensions()})).reshape({S, P, -1});
  return at::matmul(theta, terms_.coefficients.to(v.device()));
}

std::shared_ptr<const gp::FunctionSamples> ShiftedSamples::select(const at::Tensor& members) const {
  auto selected = std::make_shared<ShiftedSamples>(*this);
  selected->keep_members(members);
  return selected;
}

}  // namespace bhpm::solve
