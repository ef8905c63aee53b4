#include "gp/rbf_quadratic_kernel.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "gp/argument_checks.h"
#include "gp/kernel_expansion.h"
#include "gp/random_features.h"
#include "gp/softplus.h"
#include "util/option_check.h"

namespace bhpm::gp {

namespace {

/// The RBF part's Fourier features, then the quadratic part's exact features.
class FourierAndQuadraticFeatures : public RandomFeatures {
 public:
  FourierAndQuadraticFeatures(std::shared_ptr<const RandomFeatures> fourier,
                              std::shared_ptr<const RbfQuadraticKernelImpl> kernel)
      : fourier_(std::move(fourier)), kernel_(std::move(kernel)) {}
  at::Tensor evaluate(const at::Tensor& v) const override {
    return at::cat({fourier_->evaluate(v), kernel_->polynomial_features(v)}, 1);
  }
  std::int64_t count() const override {
    return fourier_->count() + kernel_->polynomial_feature_count();
  }

 private:
  std::shared_ptr<const RandomFeatures> fourier_;
  std::shared_ptr<const RbfQuadraticKernelImpl> kernel_;
};

const char* const kKernelName = "rbf+quadratic kernel";

}  // namespace

void validate(const RbfQuadraticKernelOptions& options) {
  validate(RbfKernelOptions{options.dimensions, options.lengthscale, options.signal_variance});
  util::require_positive(options.polynomial_variance, "rbf+quadratic kernel",
                         "polynomial_variance");
}

RbfQuadraticKernelImpl::RbfQuadraticKernelImpl(const RbfQuadraticKernelOptions& options)
    : options_(options) {
  validate(options_);
  rbf_ =
      register_module("rbf", RbfKernel(RbfKernelOptions{options_.dimensions, options_.lengthscale,
                                                        options_.signal_variance}));
  const auto real = at::TensorOptions().dtype(at::kDouble);
  raw_polynomial_scale_ = register_parameter(
      "raw_polynomial_scale",
      at::full({options_.dimensions}, inverse_softplus(options_.lengthscale, "lengthscale"), real));
  raw_polynomial_variance_ = register_parameter(
      "raw_polynomial_variance",
      at::scalar_tensor(inverse_softplus(options_.polynomial_variance, "polynomial_variance"),
                        real));
}

at::Tensor RbfQuadraticKernelImpl::polynomial_scales() const {
  return at::softplus(raw_polynomial_scale_);
}

at::Tensor RbfQuadraticKernelImpl::polynomial_variance() const {
  return at::softplus(raw_polynomial_variance_);
}

at::Tensor RbfQuadraticKernelImpl::matrix(const at::Tensor& x1, const at::Tensor& x2) const {
  require_matrix(x1, -1, options_.dimensions, kKernelName, "x1");
  require_matrix(x2, -1, options_.dimensions, kKernelName, "x2");
  return rbf_->matrix(x1, x2) + polynomial_covariance(x1, x2);
}

at::Tensor RbfQuadraticKernelImpl::batched_weighted_sum(const at::Tensor& x1, const at::Tensor& x2,
                                                        const at::Tensor& w) const {
  require_batched_matrices(x1, -1, -1, options_.dimensions, kKernelName, "x1");
  require_batched_matrices(x2, x1.size(0), -1, options_.dimensions, kKernelName, "x2");
  require_matrix(w, x2.size(0), x2.size(1), kKernelName, "w");
  // The quadratic part through its P exact features: phi(x1) (phi(x2)^T w), O(N P) per
  // batch member instead of the O(N M) of its covariances.
  const at::Tensor projected = at::bmm(feature_map(x2).transpose(1, 2), w.unsqueeze(-1));
  return rbf_->batched_weighted_sum(x1, x2, w) + at::bmm(feature_map(x1), projected).squeeze(-1);
}

bool RbfQuadraticKernelImpl::add_weighted_sum(const at::Tensor& x2, const at::Tensor& w,
                                              KernelExpansion& expansion) const {
  require_matrix(x2, -1, options_.dimensions, kKernelName, "x2");
  require_vector(w, x2.size(0), kKernelName, "w");
  if (!rbf_->add_weighted_sum(x2, w, expansion)) return false;
  const at::NoGradGuard no_grad;
  const at::Tensor inverse_a = polynomial_scales().reciprocal();
  const at::Tensor c2 = polynomial_variance();
  const at::Tensor t = x2 * inverse_a;                // t_j [M, D]
  const at::Tensor weighted = t * w.unsqueeze(1);     // w_j t_j [M, D]
  const at::Tensor s1 = weighted.sum(0) * inverse_a;  // S1 / a [D]
  const at::Tensor s2 = at::mm(t.t(), weighted) * at::outer(inverse_a, inverse_a);  // S2 / (a a^T)
  expansion.add_polynomial(c2 * w.sum(), 2.0 * c2 * s1, c2 * s2);
  return true;
}

at::Tensor RbfQuadraticKernelImpl::polynomial_covariance(const at::Tensor& x1,
                                                         const at::Tensor& x2) const {
  const at::Tensor inverse_a = polynomial_scales().reciprocal();
  const at::Tensor inner = at::matmul(x1 * inverse_a, (x2 * inverse_a).transpose(-1, -2));
  return polynomial_variance() * (1.0 + inner).square();
}

at::Tensor RbfQuadraticKernelImpl::diagonal(const at::Tensor& x) const {
  require_matrix(x, -1, options_.dimensions, kKernelName, "x");
  const at::Tensor squared_norm = (x / polynomial_scales()).square().sum(1);
  return rbf_->diagonal(x) + polynomial_variance() * (1.0 + squared_norm).square();
}

at::Tensor RbfQuadraticKernelImpl::polynomial_features(const at::Tensor& x) const {
  require_matrix(x, -1, options_.dimensions, kKernelName, "x");
  return feature_map(x);
}

std::int64_t RbfQuadraticKernelImpl::polynomial_feature_count() const {
  const std::int64_t d = options_.dimensions;
  return 1 + 2 * d + d * (d - 1) / 2;  // 1, w_k, w_k^2, w_k w_m (k < m): feature_map's columns
}

at::Tensor RbfQuadraticKernelImpl::feature_map(const at::Tensor& x) const {
  const at::Tensor w = x / polynomial_scales();
  std::vector<at::Tensor> columns = {at::ones_like(w.narrow(-1, 0, 1)), std::sqrt(2.0) * w,
                                     w.square()};
  for (std::int64_t k = 0; k < options_.dimensions; ++k)
    for (std::int64_t m = k + 1; m < options_.dimensions; ++m)
      columns.push_back(std::sqrt(2.0) * (w.select(-1, k) * w.select(-1, m)).unsqueeze(-1));
  return at::sqrt(polynomial_variance()) * at::cat(columns, -1);
}

std::vector<Hyperparameter> RbfQuadraticKernelImpl::hyperparameters() const {
  std::vector<Hyperparameter> all = rbf_->hyperparameters();
  all.push_back({"polynomial_scales", "a", polynomial_scales().detach(), "variable",
                 "as root_inputs/v", "scales a_i of the quadratic part's inputs"});
  all.push_back({"polynomial_variance", "c^2", polynomial_variance().detach(), "", "(u per time)^2",
                 "variance c^2 of the quadratic part"});
  return all;
}

void RbfQuadraticKernelImpl::set_polynomial_scales(const at::Tensor& scales) {
  require_vector(scales, options_.dimensions, kKernelName, "polynomial_scales");
  const at::NoGradGuard no_grad;
  raw_polynomial_scale_.copy_(inverse_softplus(scales, "rbf+quadratic kernel: polynomial_scales"));
}

std::shared_ptr<const RandomFeatures> RbfQuadraticKernelImpl::random_features(
    std::int64_t count, std::uint64_t seed) const {
  return std::make_shared<FourierAndQuadraticFeatures>(
      rbf_->random_features(count, seed),
      std::static_pointer_cast<const RbfQuadraticKernelImpl>(shared_from_this()));
}

}  // namespace bhpm::gp
