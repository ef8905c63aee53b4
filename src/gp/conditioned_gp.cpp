#include "gp/conditioned_gp.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "gp/argument_checks.h"
#include "gp/cholesky.h"
#include "util/random.h"

namespace bhpm::gp {

namespace {

const char* const kWhere = "conditioned GP";

at::Tensor factor_of(const Kernel& kernel, const at::Tensor& inputs) {
  return robust_cholesky(kernel.matrix(inputs, inputs), "K_cc (conditioning inputs)").lower;
}

/// W = L^{-1} k(V_c, v) [n, P].
at::Tensor whitened_cross(const Kernel& kernel, const at::Tensor& inputs, const at::Tensor& lower,
                          const at::Tensor& v) {
  return at::linalg_solve_triangular(lower, kernel.matrix(inputs, v), /*upper=*/false);
}

/// k(v, v) - |L^{-1} k(V_c, v)|^2 [P], clamped at 0.
at::Tensor variance_given_factor(const Kernel& kernel, const at::Tensor& inputs,
                                 const at::Tensor& lower, const at::Tensor& v) {
  const at::Tensor w = whitened_cross(kernel, inputs, lower, v);
  return (kernel.diagonal(v) - w.square().sum(0)).clamp_min(0.0);
}

}  // namespace

ConditionedGp::ConditionedGp(std::shared_ptr<Mean> mean, std::shared_ptr<Kernel> kernel,
                             const at::Tensor& inputs, const at::Tensor& values)
    : mean_(std::move(mean)), kernel_(std::move(kernel)), inputs_(inputs), values_(values) {
  if (!mean_ || !kernel_)
    throw std::invalid_argument("conditioned GP: mean and kernel must be set");
  if (mean_->dimensions() != kernel_->dimensions())
    throw std::invalid_argument(
        "conditioned GP: mean and kernel take inputs of different dimensions");
  require_matrix(inputs_, -1, kernel_->dimensions(), kWhere, "conditioning inputs");
  require_vector(values_, inputs_.size(0), kWhere, "conditioning values");
  lower_ = factor_of(*kernel_, inputs_);
  alpha_ = at::cholesky_solve((values_ - mean_->forward(inputs_)).unsqueeze(1), lower_).squeeze(1);
}

at::Tensor ConditionedGp::mean(const at::Tensor& v) const {
  require_matrix(v, -1, dimensions(), kWhere, "inputs v");
  return mean_->forward(v) + at::mv(kernel_->matrix(v, inputs_), alpha_);
}

at::Tensor ConditionedGp::variance(const at::Tensor& v) const {
  require_matrix(v, -1, dimensions(), kWhere, "inputs v");
  return variance_given_factor(*kernel_, inputs_, lower_, v);
}

MultivariateNormal ConditionedGp::posterior(const at::Tensor& v) const {
  require_matrix(v, -1, dimensions(), kWhere, "inputs v");
  const at::Tensor cross = kernel_->matrix(inputs_, v);  // [n, P]
  const at::Tensor w = at::linalg_solve_triangular(lower_, cross, /*upper=*/false);
  return {mean_->forward(v) + at::mv(cross.t(), alpha_), kernel_->matrix(v, v) - at::mm(w.t(), w)};
}

at::Tensor ConditionedGp::sample(const at::Tensor& v, util::Rng& rng) const {
  const MultivariateNormal joint = posterior(v);
  const at::Tensor lower =
      robust_cholesky(joint.covariance, "posterior covariance at new conditioning inputs").lower;
  return joint.mean + at::mv(lower, util::normal_tensor(rng, {v.size(0)}, v.device()));
}

ConditionedGp ConditionedGp::extended(const at::Tensor& new_inputs,
                                      const at::Tensor& new_values) const {
  require_matrix(new_inputs, -1, dimensions(), kWhere, "new conditioning inputs");
  require_vector(new_values, new_inputs.size(0), kWhere, "new conditioning values");
  return ConditionedGp(mean_, kernel_, at::cat({inputs_, new_inputs}),
                       at::cat({values_, new_values}));
}

at::Tensor conditioned_variance(const Kernel& kernel, const at::Tensor& inputs,
                                const at::Tensor& v) {
  require_matrix(inputs, -1, kernel.dimensions(), kWhere, "conditioning inputs");
  require_matrix(v, -1, kernel.dimensions(), kWhere, "inputs v");
  return variance_given_factor(kernel, inputs, factor_of(kernel, inputs), v);
}

ConditionedGp condition_on_inducing_draw(const SparseVariationalGpImpl& gp, util::Rng& rng) {
  return ConditionedGp(gp.mean(), gp.kernel(), gp.inducing_inputs().detach(),
                       gp.draw_inducing_outputs(rng));
}

ConditionedSamples::ConditionedSamples(std::vector<ConditionedGp> members)
    : members_(std::move(members)) {
  if (members_.empty()) throw std::invalid_argument("conditioned samples: no member");
  const ConditionedGp& first = members_.front();
  shared_prior_ = true;
  std::int64_t largest = 0;
  for (const ConditionedGp& member : members_) {
    if (member.dimensions() != first.dimensions())
      throw std::invalid_argument(
          "conditioned samples: members take inputs of different dimensions");
    shared_prior_ = shared_prior_ && member.prior_mean() == first.prior_mean() &&
                    member.kernel() == first.kernel();
    largest = std::max(largest, member.size());
  }
  if (!shared_prior_) return;
  padded_inputs_ = at::zeros({count(), largest, dimensions()}, first.inputs().options());
  padded_weights_ = at::zeros({count(), largest}, first.weights().options());
  for (std::int64_t s = 0; s < count(); ++s) {
    const ConditionedGp& member = members_[static_cast<std::size_t>(s)];
    padded_inputs_[s].narrow(0, 0, member.size()).copy_(member.inputs());
    padded_weights_[s].narrow(0, 0, member.size()).copy_(member.weights());
  }
  for (const ConditionedGp& member : members_) {
    std::optional<KernelExpansion> expansion = expand_weighted_sum(
        *member.prior_mean(), *member.kernel(), member.inputs(), member.weights());
    if (!expansion) {
      expansions_.clear();
      return;
    }
    expansions_.push_back(std::move(*expansion));
  }
}

at::Tensor ConditionedSamples::evaluate(const at::Tensor& v) const {
  if (v.dim() != 3 || v.size(0) != count() || v.size(2) != dimensions())
    throw std::invalid_argument("conditioned samples: v must be [" + std::to_string(count()) +
                                ", P, " + std::to_string(dimensions()) + "] (got " +
                                describe_tensor(v) + ")");
  if (!shared_prior_) {
    std::vector<at::Tensor> values;
    for (std::int64_t s = 0; s < count(); ++s) values.push_back(members_[s].mean(v[s]));
    return at::stack(values);
  }
  const ConditionedGp& first = members_.front();
  const at::Tensor prior = first.prior_mean()->forward(v.reshape({-1, dimensions()}));
  return prior.view({v.size(0), v.size(1)}) +
         first.kernel()->batched_weighted_sum(v, padded_inputs_, padded_weights_);
}

const KernelExpansion* ConditionedSamples::expansion(std::int64_t s) const {
  return expansions_.empty() ? nullptr : &expansions_.at(static_cast<std::size_t>(s));
}

std::shared_ptr<const FunctionSamples> ConditionedSamples::select(const at::Tensor& members) const {
  const at::Tensor index = members.to(at::kCPU).contiguous();
  std::vector<ConditionedGp> selected;
  for (std::int64_t i = 0; i < index.numel(); ++i)
    selected.push_back(members_[static_cast<std::size_t>(index[i].item<std::int64_t>())]);
  return std::make_shared<ConditionedSamples>(std::move(selected));
}

}  // namespace bhpm::gp
