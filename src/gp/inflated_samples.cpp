#include "gp/inflated_samples.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "util/number_format.h"

namespace bhpm::gp {

InflatedSamples::InflatedSamples(std::shared_ptr<const FunctionSamples> samples,
                                 const SparseVariationalGpImpl& root, double factor)
    : samples_(std::move(samples)), mean_(root), scale_(std::sqrt(factor)) {
  if (!samples_) throw std::invalid_argument("inflated samples: no samples given");
  if (samples_->dimensions() != mean_.dimensions())
    throw std::invalid_argument("inflated samples: the samples take " +
                                std::to_string(samples_->dimensions()) + " inputs, the root " +
                                std::to_string(mean_.dimensions()));
  if (!std::isfinite(factor) || factor <= 0.0)
    throw std::invalid_argument("inflated samples: the factor must be positive and finite (got " +
                                util::format_significant(factor, 6) + ")");
}

at::Tensor InflatedSamples::evaluate(const at::Tensor& v) const {
  const at::Tensor m = mean_.evaluate(v);
  return m + scale_ * (samples_->evaluate(v) - m);
}

at::Tensor InflatedSamples::evaluate_at(const at::Tensor& v, const at::Tensor& t) const {
  const at::Tensor m = mean_.evaluate(v);
  return m + scale_ * (samples_->evaluate_at(v, t) - m);
}

std::shared_ptr<const FunctionSamples> InflatedSamples::select(const at::Tensor& members) const {
  auto selected = std::make_shared<InflatedSamples>(*this);
  selected->samples_ = select_members(samples_, members);
  return selected;
}

}  // namespace bhpm::gp
