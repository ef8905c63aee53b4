#include "gp/rbf_kernel.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gp/argument_checks.h"
#include "gp/fourier_features.h"
#include "gp/kernel_expansion.h"
#include "gp/softplus.h"
#include "util/option_check.h"

namespace bhpm::gp {

namespace {
const char* const kWhere = "rbf kernel";
}

void validate(const RbfKernelOptions& options) {
  util::require_at_least(options.dimensions, 1, "rbf kernel", "dimensions");
  util::require_positive(options.lengthscale, "rbf kernel", "lengthscale");
  util::require_positive(options.signal_variance, "rbf kernel", "signal_variance");
}

RbfKernelImpl::RbfKernelImpl(const RbfKernelOptions& options) : options_(options) {
  validate(options_);
  const auto real = at::TensorOptions().dtype(at::kDouble);
  raw_lengthscale_ = register_parameter(
      "raw_lengthscale",
      at::full({options_.dimensions}, inverse_softplus(options_.lengthscale, "lengthscale"), real));
  raw_signal_variance_ = register_parameter(
      "raw_signal_variance",
      at::scalar_tensor(inverse_softplus(options_.signal_variance, "signal_variance"), real));
}

at::Tensor RbfKernelImpl::lengthscales() const { return at::softplus(raw_lengthscale_); }

at::Tensor RbfKernelImpl::signal_variance() const { return at::softplus(raw_signal_variance_); }

at::Tensor RbfKernelImpl::matrix(const at::Tensor& x1, const at::Tensor& x2) const {
  require_matrix(x1, -1, options_.dimensions, kWhere, "x1");
  require_matrix(x2, -1, options_.dimensions, kWhere, "x2");
  return covariance(x1, x2);
}

at::Tensor RbfKernelImpl::batched_weighted_sum(const at::Tensor& x1, const at::Tensor& x2,
                                               const at::Tensor& w) const {
  require_batched_matrices(x1, -1, -1, options_.dimensions, kWhere, "x1");
  require_batched_matrices(x2, x1.size(0), -1, options_.dimensions, kWhere, "x2");
  require_matrix(w, x2.size(0), x2.size(1), kWhere, "w");
  const at::Tensor inverse_l = lengthscales().reciprocal();
  const at::Tensor a = x1 * inverse_l;
  const at::Tensor b = x2 * inverse_l;
  // -|a_i - b_j|^2 / 2 = (a_i, -|a_i|^2 / 2, 1) . (b_j, 1, -|b_j|^2 / 2): the exponent in one
  // product, clamped at 0 against rounding and exponentiated in place, then multiplied by
  // s^2 w: one [B, N, M] allocation and three passes over it.
  const at::Tensor left =
      at::cat({a, -0.5 * a.square().sum(-1, true), at::ones_like(a.narrow(-1, 0, 1))}, -1);
  const at::Tensor right =
      at::cat({b, at::ones_like(b.narrow(-1, 0, 1)), -0.5 * b.square().sum(-1, true)}, -1);
  at::Tensor exponentials = at::bmm(left, right.transpose(1, 2));
  exponentials.clamp_max_(0.0).exp_();
  return at::bmm(exponentials, (signal_variance() * w).unsqueeze(-1)).squeeze(-1);
}

bool RbfKernelImpl::add_weighted_sum(const at::Tensor& x2, const at::Tensor& w,
                                     KernelExpansion& expansion) const {
  require_matrix(x2, -1, options_.dimensions, kWhere, "x2");
  require_vector(w, x2.size(0), kWhere, "w");
  return expansion.set_bumps(lengthscales(), x2, signal_variance() * w);
}

at::Tensor RbfKernelImpl::covariance(const at::Tensor& x1, const at::Tensor& x2) const {
  const at::Tensor inverse_l = lengthscales().reciprocal();
  const at::Tensor a = x1 * inverse_l;
  const at::Tensor b = x2 * inverse_l;
  // |a_i - b_j|^2 = |a_i|^2 + |b_j|^2 - 2 a_i . b_j, one matrix product; clamped at 0
  // against rounding (the exact value is >= 0).
  const at::Tensor norms = a.square().sum(1, true) + b.square().sum(1).unsqueeze(0);
  const at::Tensor squared = at::addmm(norms, a, b.t(), /*beta=*/1, /*alpha=*/-2).clamp_min(0.0);
  return signal_variance() * at::exp(-0.5 * squared);
}

at::Tensor RbfKernelImpl::diagonal(const at::Tensor& x) const {
  require_matrix(x, -1, options_.dimensions, kWhere, "x");
  return signal_variance() * at::ones({x.size(0)}, x.options());
}

std::vector<Hyperparameter> RbfKernelImpl::hyperparameters() const {
  return {{"lengthscales", "l", lengthscales().detach(), "variable", "as root_inputs/v",
           "ARD lengthscales l_i"},
          {"signal_variance", "s^2", signal_variance().detach(), "", "(u per time)^2",
           "signal variance s^2 of the kernel"}};
}

void RbfKernelImpl::set_lengthscales(const at::Tensor& lengthscales) {
  require_vector(lengthscales, options_.dimensions, kWhere, "lengthscales");
  const at::NoGradGuard no_grad;
  raw_lengthscale_.copy_(inverse_softplus(lengthscales, "rbf kernel: lengthscales"));
}

void RbfKernelImpl::set_lengthscales(double lengthscale) {
  const at::NoGradGuard no_grad;
  raw_lengthscale_.fill_(inverse_softplus(lengthscale, "rbf kernel: lengthscale"));
}

void RbfKernelImpl::set_signal_variance(double signal_variance) {
  const at::NoGradGuard no_grad;
  raw_signal_variance_.fill_(inverse_softplus(signal_variance, "rbf kernel: signal_variance"));
}

std::shared_ptr<const RandomFeatures> RbfKernelImpl::random_features(std::int64_t count,
                                                                     std::uint64_t seed) const {
  const at::NoGradGuard no_grad;
  return std::make_shared<FourierFeatures>(lengthscales().detach(),
                                           signal_variance().item<double>(), count, seed);
}

}  // namespace bhpm::gp
