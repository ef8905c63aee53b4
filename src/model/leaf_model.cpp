#include "model/leaf_model.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "util/option_check.h"

namespace bhpm::model {

void validate(const LeafModelOptions& options) {
  util::validate_nested("leaves", "", [&] { nn::validate(options.network); });
  util::require_positive(options.initial_noise, "leaves", "initial_noise");
}

LeafModelImpl::LeafModelImpl(const LeafModelOptions& options) : options_(options) {
  validate(options);
  network_ = register_module("network", nn::SineMlp(options.network));
  log_noise_ = register_parameter(
      "log_noise",
      at::full({options.network.leaves}, std::log(options.initial_noise), at::kDouble));
}

at::Tensor LeafModelImpl::noise_scale() const { return at::exp(log_noise_); }

void LeafModelImpl::set_noise_scale(const at::Tensor& sigma) {
  if (sigma.sizes() != log_noise_.sizes() || !(sigma > 0).all().item<bool>() ||
      !at::isfinite(sigma).all().item<bool>())
    throw std::invalid_argument("leaf noise scales: " + std::to_string(log_noise_.size(0)) +
                                " positive finite values are needed");
  const at::NoGradGuard no_grad;
  log_noise_.copy_(sigma.log());
}

at::Tensor gaussian_negative_log_likelihood(const at::Tensor& log_sigma,
                                            const at::Tensor& predicted,
                                            const at::Tensor& measured) {
  const at::Tensor squared = (measured - predicted).pow(2);
  return log_sigma + 0.5 * std::log(2.0 * M_PI) + 0.5 * squared * at::exp(-2.0 * log_sigma);
}

at::Tensor LeafModelImpl::negative_log_likelihood(const at::Tensor& predicted,
                                                  const at::Tensor& measured) const {
  return gaussian_negative_log_likelihood(log_noise_.unsqueeze(1), predicted, measured).mean(1);
}

}  // namespace bhpm::model
