#include "solve/stabilised_samples.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "util/tensor_values.h"

namespace bhpm::solve {

namespace {

constexpr std::int64_t kSecondDerivative = 2;  ///< u_xx's column in v

}  // namespace

StabilisedSamples::StabilisedSamples(std::shared_ptr<const gp::FunctionSamples> samples,
                                     at::Tensor diffusion)
    : AddedTermSamples(std::move(samples)) {
  if (!diffusion.defined() || diffusion.dim() != 1 || diffusion.size(0) != count())
    throw std::invalid_argument(
        "stabilised samples: the diffusion must have one entry per sample (" +
        std::to_string(count()) + ")");
  diffusion = diffusion.to(at::kDouble);
  if (!at::isfinite(diffusion).all().item<bool>() || (diffusion < 0.0).any().item<bool>())
    throw std::invalid_argument("stabilised samples: the diffusion must be finite and >= 0");
  if (dimensions() <= kSecondDerivative && (diffusion > 0.0).any().item<bool>())
    throw std::invalid_argument("stabilised samples: the samples take no u_xx (" +
                                std::to_string(dimensions()) + " inputs)");
  diffusion_ = diffusion.unsqueeze(1);
  plain_diffusion_ = util::plain_values(diffusion);
}

at::Tensor StabilisedSamples::added_term(const at::Tensor& v) const {
  if (v.size(-1) <= kSecondDerivative) return at::zeros({v.size(0), v.size(1)}, v.options());
  return diffusion_ * v.select(2, kSecondDerivative);
}

void StabilisedSamples::add_term_values(std::int64_t s, const double* v, std::int64_t points,
                                        double* out) const {
  const double a = plain_diffusion_.at(static_cast<std::size_t>(s));
  if (a == 0.0) return;
  const double* u_xx = v + kSecondDerivative * points;
  for (std::int64_t p = 0; p < points; ++p) out[p] += a * u_xx[p];
}

std::shared_ptr<const gp::FunctionSamples> StabilisedSamples::select(
    const at::Tensor& members) const {
  auto selected = std::make_shared<StabilisedSamples>(*this);
  selected->keep_members(members);
  selected->diffusion_ = diffusion_.index_select(0, members.to(diffusion_.device()));
  selected->plain_diffusion_ = util::plain_values(selected->diffusion_);
  return selected;
}

}  // namespace bhpm::solve
