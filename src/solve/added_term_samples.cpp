#include "solve/added_term_samples.h"

#include <stdexcept>
#include <utility>

namespace bhpm::solve {

AddedTermSamples::AddedTermSamples(std::shared_ptr<const gp::FunctionSamples> samples)
    : samples_(std::move(samples)) {
  if (!samples_) throw std::invalid_argument("operator samples with an added term: no samples");
}

at::Tensor AddedTermSamples::evaluate(const at::Tensor& v) const {
  return samples_->evaluate(v) + added_term(v);
}

at::Tensor AddedTermSamples::evaluate_at(const at::Tensor& v, const at::Tensor& t) const {
  return samples_->evaluate_at(v, t) + added_term(v);
}

bool AddedTermSamples::evaluates_values() const {
  return samples_->evaluates_values() && adds_values();
}

void AddedTermSamples::evaluate_values(std::int64_t s, const double* v, std::int64_t points,
                                       double t, double* out) const {
  samples_->evaluate_values(s, v, points, t, out);
  add_term_values(s, v, points, out);
}

void AddedTermSamples::add_term_values(std::int64_t /*s*/, const double* /*v*/,
                                       std::int64_t /*points*/, double* /*out*/) const {
  throw std::logic_error("this added term evaluates tensors only");
}

void AddedTermSamples::keep_members(const at::Tensor& members) {
  samples_ = gp::select_members(samples_, members);
}

}  // namespace bhpm::solve
