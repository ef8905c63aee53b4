#include "gp/inflated_samples.h"

#include <ATen/ATen.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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
  combine_expansions();
}

at::Tensor InflatedSamples::evaluate(const at::Tensor& v) const {
  const at::Tensor m = mean_.evaluate(v);
  return m + scale_ * (samples_->evaluate(v) - m);
}

at::Tensor InflatedSamples::evaluate_at(const at::Tensor& v, const at::Tensor& t) const {
  const at::Tensor m = mean_.evaluate(v);
  return m + scale_ * (samples_->evaluate_at(v, t) - m);
}

const KernelExpansion* InflatedSamples::expansion(std::int64_t s) const {
  return expansions_.empty() ? nullptr : &expansions_.at(static_cast<std::size_t>(s));
}

void InflatedSamples::combine_expansions() {
  expansions_.clear();
  const KernelExpansion* m = mean_.expansion(0);
  if (!m) return;
  std::vector<KernelExpansion> combined;
  for (std::int64_t s = 0; s < count(); ++s) {
    const KernelExpansion* f = samples_->expansion(s);
    std::optional<KernelExpansion> sum =
        f ? linear_combination(scale_, *f, 1.0 - scale_, *m) : std::nullopt;
    if (!sum) return;
    combined.push_back(std::move(*sum));
  }
  expansions_ = std::move(combined);
}

std::shared_ptr<const FunctionSamples> InflatedSamples::select(const at::Tensor& members) const {
  auto selected = std::make_shared<InflatedSamples>(*this);
  selected->samples_ = select_members(samples_, members);
  selected->combine_expansions();
  return selected;
}

}  // namespace bhpm::gp
