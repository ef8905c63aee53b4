#include "solve/sampled_operator.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace bhpm::solve {

SampledOperatorTerm::SampledOperatorTerm(std::shared_ptr<const gp::FunctionSamples> samples,
                                         std::vector<double> linear, bool conserve_mean)
    : samples_(std::move(samples)), linear_(std::move(linear)), conserve_mean_(conserve_mean) {
  if (!samples_) throw std::invalid_argument("sampled operator: no samples");
  if (static_cast<std::int64_t>(linear_.size()) != samples_->dimensions())
    throw std::invalid_argument("sampled operator: " + std::to_string(linear_.size()) +
                                " linear coefficients for inputs of dimension " +
                                std::to_string(samples_->dimensions()));
}

int SampledOperatorTerm::max_derivative() const {
  return static_cast<int>(samples_->dimensions() - 1);
}

at::Tensor SampledOperatorTerm::evaluate(const at::Tensor& derivatives) const {
  return evaluate_at(derivatives, at::zeros({}, derivatives.options()));
}

at::Tensor SampledOperatorTerm::evaluate_at(const at::Tensor& derivatives,
                                            const at::Tensor& t) const {
  const at::Tensor v = derivatives.permute({1, 2, 0});  // [S, n, D]
  const at::Tensor times = t.dim() == 0 ? t : t.expand({v.size(0), v.size(1)});
  at::Tensor n = samples_->evaluate_at(v, times);
  if (conserve_mean_) n = n - n.mean(-1, /*keepdim=*/true);
  for (std::size_t m = 0; m < linear_.size(); ++m)
    n = n - linear_[m] * derivatives[static_cast<std::int64_t>(m)];
  return n;
}

std::shared_ptr<const pde::NonlinearTerm> SampledOperatorTerm::select_members(
    const at::Tensor& members) const {
  return std::make_shared<SampledOperatorTerm>(gp::select_members(samples_, members), linear_,
                                               conserve_mean_);
}

void SampledOperatorTerm::evaluate_values(std::int64_t member, const double* derivatives,
                                          std::int64_t points, double t, double* out) const {
  samples_->evaluate_values(member, derivatives, points, t, out);
  if (conserve_mean_) {
    double mean = 0.0;
    for (std::int64_t p = 0; p < points; ++p) mean += out[p];
    mean /= static_cast<double>(points);
    for (std::int64_t p = 0; p < points; ++p) out[p] -= mean;
  }
  for (std::size_t m = 0; m < linear_.size(); ++m)
    for (std::int64_t p = 0; p < points; ++p)
      out[p] -= linear_[m] * derivatives[static_cast<std::int64_t>(m) * points + p];
}

std::string SampledOperatorTerm::describe() const {
  std::ostringstream text;
  text << samples_->count() << " operator samples minus their linear part";
  if (conserve_mean_) text << " and their spatial mean";
  return text.str();
}

namespace {

/// df_s/dv [S, P, D] at v [S, P, D] by autograd; undefined when the samples do not depend on v.
at::Tensor jacobian(const gp::FunctionSamples& samples, const at::Tensor& v) {
  const at::AutoGradMode grad(true);
  const at::Tensor inputs = v.detach().clone().set_requires_grad(true);
  const at::Tensor values = samples.evaluate(inputs);
  return torch::autograd::grad({values.sum()}, {inputs}, {}, false, false, true)[0];
}

/// Mean of the finite entries of `gradient` [S, P, D] over `dims` (0 where none is finite).
at::Tensor finite_mean(const at::Tensor& gradient, at::IntArrayRef dims) {
  const at::Tensor finite = at::isfinite(gradient);
  return at::where(finite, gradient, at::zeros_like(gradient)).sum(dims) /
         finite.sum(dims).clamp_min(1);
}

}  // namespace

std::vector<double> average_jacobian(const gp::FunctionSamples& samples, const at::Tensor& v) {
  const at::Tensor gradient = jacobian(samples, v);
  std::vector<double> linear(static_cast<std::size_t>(v.size(2)), 0.0);
  if (!gradient.defined()) return linear;  // the samples do not depend on v
  // A member whose Jacobian is not finite (a broken sample) must not spoil the others' L.
  const at::Tensor mean = finite_mean(gradient, {0, 1});
  for (std::size_t m = 0; m < linear.size(); ++m)
    linear[m] = mean[static_cast<std::int64_t>(m)].item<double>();
  return linear;
}

at::Tensor member_jacobians(const gp::FunctionSamples& samples, const at::Tensor& v) {
  const at::Tensor gradient = jacobian(samples, v);
  if (!gradient.defined()) return at::zeros({v.size(0), v.size(2)}, v.options());
  const at::Tensor finite = at::isfinite(gradient);
  const at::Tensor mean = finite_mean(gradient, {1});
  // A member with no finite entry has no linearisation: NaN marks it.
  return at::where(finite.any(1), mean, at::full_like(mean, NAN));
}

}  // namespace bhpm::solve
