#include "solve/stabilised_samples.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

namespace bhpm::solve {

namespace {

constexpr std::int64_t kSecondDerivative = 2;  ///< u_xx's column in v

}  // namespace

StabilisedSamples::StabilisedSamples(std::shared_ptr<const gp::FunctionSamples> samples,
                                     at::Tensor diffusion)
    : samples_(std::move(samples)) {
  if (!samples_) throw std::invalid_argument("stabilised samples: no samples given");
  if (!diffusion.defined() || diffusion.dim() != 1 || diffusion.size(0) != samples_->count())
    throw std::invalid_argument(
        "stabilised samples: the diffusion must have one entry per sample (" +
        std::to_string(samples_->count()) + ")");
  diffusion = diffusion.to(at::kDouble);
  if (!at::isfinite(diffusion).all().item<bool>() || (diffusion < 0.0).any().item<bool>())
    throw std::invalid_argument("stabilised samples: the diffusion must be finite and >= 0");
  if (samples_->dimensions() <= kSecondDerivative && (diffusion > 0.0).any().item<bool>())
    throw std::invalid_argument("stabilised samples: the samples take no u_xx (" +
                                std::to_string(samples_->dimensions()) + " inputs)");
  diffusion_ = diffusion.unsqueeze(1);
}

at::Tensor StabilisedSamples::added_diffusion(const at::Tensor& v) const {
  if (v.size(-1) <= kSecondDerivative) return at::zeros({v.size(0), v.size(1)}, v.options());
  return diffusion_ * v.select(2, kSecondDerivative);
}

at::Tensor StabilisedSamples::evaluate(const at::Tensor& v) const {
  return samples_->evaluate(v) + added_diffusion(v);
}

at::Tensor StabilisedSamples::evaluate_at(const at::Tensor& v, const at::Tensor& t) const {
  return samples_->evaluate_at(v, t) + added_diffusion(v);
}

std::shared_ptr<const gp::FunctionSamples> StabilisedSamples::select(
    const at::Tensor& members) const {
  auto selected = std::make_shared<StabilisedSamples>(*this);
  selected->samples_ = gp::select_members(samples_, members);
  selected->diffusion_ = diffusion_.index_select(0, members.to(diffusion_.device()));
  return selected;
}

}  // namespace bhpm::solve
