#include "gp/discrepancy_field.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gp/argument_checks.h"
#include "util/option_check.h"
#include "util/random.h"
#include "util/tensor_values.h"

namespace bhpm::gp {

void validate(const DiscrepancyOptions& options) {
  const std::string owner = "model discrepancy";
  util::require_non_negative(options.variance, owner, "variance");
  util::require_non_negative(options.timescale, owner, "timescale");
  util::require_at_least(options.features, 1, owner, "features");
  util::require_at_least(options.inputs, 1, owner, "inputs");
}

DiscrepancyField::DiscrepancyField(const at::Tensor& lengthscales, std::int64_t count,
                                   const DiscrepancyOptions& options) {
  validate(options);
  require_vector(lengthscales, -1, "model discrepancy", "lengthscales");
  if (!(lengthscales > 0.0).all().item<bool>())
    throw std::invalid_argument("model discrepancy: lengthscales must be > 0");
  if (count < 1)
    throw std::invalid_argument("model discrepancy: count must be >= 1 (got " +
                                std::to_string(count) + ")");
  const at::NoGradGuard no_grad;
  const std::int64_t d = lengthscales.size(0), f = options.features;
  const at::Tensor scales = lengthscales.detach().unsqueeze(1);
  // 1 for the inputs the field depends on, 0 for the others: [D, 1].
  const at::Tensor active = (at::arange(d, scales.options().dtype(at::kLong)) < options.inputs)
                                .to(at::kDouble)
                                .unsqueeze(1);
  const double amplitude = std::sqrt(options.variance * 2.0 / static_cast<double>(f));
  std::vector<at::Tensor> frequencies, phases, weights, time_frequencies;
  for (std::int64_t s = 0; s < count; ++s) {
    util::Rng rng(util::derive_seed(options.seed, "discrepancy", static_cast<std::uint64_t>(s)));
    frequencies.push_back(util::normal_tensor(rng, {d, f}, scales.device()) / scales * active);
    phases.push_back(2.0 * M_PI * util::uniform_tensor(rng, {1, f}, scales.device()));
    weights.push_back(amplitude * util::normal_tensor(rng, {f, 1}, scales.device()));
    const at::Tensor nu = util::normal_tensor(rng, {1, f}, scales.device());
    time_frequencies.push_back(options.timescale > 0.0 ? nu / options.timescale : 0.0 * nu);
  }
  time_frequencies_ = at::stack(time_frequencies);
  frequencies_ = at::stack(frequencies);
  phases_ = at::stack(phases);
  weights_ = at::stack(weights);
  frequency_values_ = util::plain_values(frequencies_);
  phase_values_ = util::plain_values(phases_);
  time_frequency_values_ = util::plain_values(time_frequencies_);
  weight_values_ = util::plain_values(weights_);
}

namespace {

/// Angles per block: a block of [rows, F] stays in cache and takes one vectorised cos.
constexpr std::int64_t kBlockAngles = 8192;

}  // namespace

void DiscrepancyField::add_values(std::int64_t member, const double* v, std::int64_t points,
                                  double t, double* out) const {
  if (member < 0 || member >= count())
    throw std::invalid_argument("model discrepancy: no member " + std::to_string(member) + " of " +
                                std::to_string(count()));
  const std::int64_t d = dimensions(), f = frequencies_.size(2);
  const double* omega = frequency_values_.data() + member * d * f;  // [D, F]
  const double* phase = phase_values_.data() + member * f;
  const double* nu = time_frequency_values_.data() + member * f;
  const double* weight = weight_values_.data() + member * f;
  const std::int64_t rows = std::max<std::int64_t>(1, kBlockAngles / f);
  std::vector<double> angles(static_cast<std::size_t>(std::min(rows, points) * f));
  for (std::int64_t first = 0; first < points; first += rows) {
    const std::int64_t block = std::min(rows, points - first);
    for (std::int64_t r = 0; r < block; ++r) {
      double* row = angles.data() + r * f;
      for (std::int64_t j = 0; j < f; ++j) row[j] = phase[j] + nu[j] * t;
      for (std::int64_t k = 0; k < d; ++k) {
        const double x = v[k * points + first + r];
        const double* omega_k = omega + k * f;
        for (std::int64_t j = 0; j < f; ++j) row[j] += x * omega_k[j];
      }
    }
    at::from_blob(angles.data(), {block * f}, at::kDouble).cos_();
    for (std::int64_t r = 0; r < block; ++r) {
      const double* row = angles.data() + r * f;
      double sum = 0.0;
      for (std::int64_t j = 0; j < f; ++j) sum += weight[j] * row[j];
      out[first + r] += sum;
    }
  }
}

at::Tensor DiscrepancyField::evaluate(const at::Tensor& v, const at::Tensor& members,
                                      const at::Tensor& t) const {
  require_batched_matrices(v, -1, -1, dimensions(), "model discrepancy", "v");
  if (!members.defined() || members.dim() != 1 || members.scalar_type() != at::kLong ||
      members.size(0) != v.size(0))
    throw std::invalid_argument("model discrepancy: members must be int64 [" +
                                std::to_string(v.size(0)) + "] (got " + describe_tensor(members) +
                                ")");
  if (!t.defined() || t.scalar_type() != at::kDouble ||
      !(t.dim() == 0 || (t.dim() == 2 && t.size(0) == v.size(0) && t.size(1) == v.size(1))))
    throw std::invalid_argument("model discrepancy: t must be a double scalar or [" +
                                std::to_string(v.size(0)) + ", " + std::to_string(v.size(1)) +
                                "] (got " + describe_tensor(t) + ")");
  const at::Tensor index = members.to(phases_.device());
  // b + nu t: [B, 1, F] for a scalar t, [B, P, F] for one time per point.
  const at::Tensor phases =
      phases_.index_select(0, index) +
      (t.dim() == 0 ? t : t.unsqueeze(2)) * time_frequencies_.index_select(0, index);
  at::Tensor angles = at::baddbmm(phases, v, frequencies_.index_select(0, index));  // [B, P, F]
  // In place when no gradient is recorded: the solver's steps evaluate it without one.
  angles = at::GradMode::is_enabled() && v.requires_grad() ? at::cos(angles) : angles.cos_();
  return at::bmm(angles, weights_.index_select(0, index)).squeeze(2);
}

SamplesWithDiscrepancy::SamplesWithDiscrepancy(std::shared_ptr<const FunctionSamples> samples,
                                               std::shared_ptr<const DiscrepancyField> field,
                                               at::Tensor members)
    : samples_(std::move(samples)), field_(std::move(field)), members_(std::move(members)) {
  if (!samples_ || !field_)
    throw std::invalid_argument("samples with discrepancy: samples and field must be set");
  if (members_.defined()) members_ = members_.to(field_->device());  // once, not every step
  if (field_->dimensions() != samples_->dimensions())
    throw std::invalid_argument(
        "samples with discrepancy: the field has D = " + std::to_string(field_->dimensions()) +
        ", the samples D = " + std::to_string(samples_->dimensions()));
  if (!members_.defined() || members_.dim() != 1 || members_.scalar_type() != at::kLong ||
      members_.size(0) != samples_->count() ||
      (members_.numel() > 0 && (members_.min().item<std::int64_t>() < 0 ||
                                members_.max().item<std::int64_t>() >= field_->count())))
    throw std::invalid_argument("samples with discrepancy: members must be " +
                                std::to_string(samples_->count()) + " int64 in [0, " +
                                std::to_string(field_->count()) + ") (got " +
                                describe_tensor(members_) + ")");
  const at::Tensor on_cpu = members_.to(at::kCPU).contiguous();
  member_values_.assign(on_cpu.data_ptr<std::int64_t>(),
                        on_cpu.data_ptr<std::int64_t>() + on_cpu.numel());
}

at::Tensor SamplesWithDiscrepancy::evaluate(const at::Tensor& v) const {
  return evaluate_at(v, at::zeros({}, v.options()));
}

at::Tensor SamplesWithDiscrepancy::evaluate_at(const at::Tensor& v, const at::Tensor& t) const {
  return samples_->evaluate_at(v, t) + field_->evaluate(v, members_, t);
}

void SamplesWithDiscrepancy::evaluate_values(std::int64_t s, const double* v, std::int64_t points,
                                             double t, double* out) const {
  samples_->evaluate_values(s, v, points, t, out);
  field_->add_values(member_values_.at(static_cast<std::size_t>(s)), v, points, t, out);
}

std::shared_ptr<const FunctionSamples> SamplesWithDiscrepancy::select(
    const at::Tensor& members) const {
  return std::make_shared<SamplesWithDiscrepancy>(
      select_members(samples_, members), field_,
      members_.index_select(0, members.to(members_.device())));
}

}  // namespace bhpm::gp
