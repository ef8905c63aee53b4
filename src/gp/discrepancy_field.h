#pragma once
/// The model-discrepancy term of the operator samples (docs/calibration.md, "Model
/// discrepancy"): S independent smooth random functions of v and t added to S samples of
/// q(f),
///   f_s(v, t) = g_s(v) + delta_s(v, t),
///   delta_s ~ GP(0, tau^2 exp(-|v - v'|^2_l / 2) exp(-(t - t')^2 / (2 T^2))),
/// |a|^2_l = sum_d a_d^2 / l_d^2, l [D] the root kernel's lengthscales
/// (Kernel::input_scales), and T > 0 the discrepancy's timescale (T = 0 stands for a
/// discrepancy constant in time, T -> infinity). A discrepancy that decorrelates in time
/// makes its effect on a solution add up like a random walk rather than coherently, so
/// the band's width follows the error over the horizon instead of outgrowing it.
/// Each delta_s is drawn with F random Fourier features of its own (Rahimi and Recht 2007),
///   delta_s(v, t) = tau sqrt(2 / F) sum_j a_sj cos(omega_sj . v + nu_sj t + b_sj),
///   omega_sj ~ N(0, diag(1 / l^2)),  nu_sj ~ N(0, 1 / T^2) (0 for T = 0),
///   b_sj ~ U[0, 2 pi),  a_sj ~ N(0, 1),
/// from derive_seed(seed, "discrepancy", s): sample s is the same whatever S, and over the
/// draws E[delta_s(v, t) delta_s(v', t')] is the kernel above exactly (the features are
/// an unbiased estimate of it). Every delta_s is a fixed, differentiable function of v.
/// With `inputs` = m < D the field depends on v_0 .. v_{m-1} only (omega_sjd = 0 for
/// d >= m, the same draws otherwise): the kernel above with |.|_l over those inputs.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "gp/function_samples.h"

namespace bhpm::gp {

struct DiscrepancyOptions {
  double variance = 0.0;  ///< tau^2 >= 0 (0: every delta_s is 0)
  /// T >= 0: the discrepancy decorrelates in time as exp(-(t - t')^2 / (2 T^2)); 0: it is
  /// constant in time.
  double timescale = 0.0;
  std::int64_t features = 64;  ///< F >= 1 per sample
  /// m >= 1: the field depends on the first m inputs only (m >= D: on all of them).
  std::int64_t inputs = std::numeric_limits<std::int64_t>::max();
  std::uint64_t seed = 0;
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const DiscrepancyOptions& options);

class DiscrepancyField {
 public:
  /// `count` (>= 1) functions on inputs scaled by `lengthscales` [D] (each > 0).
  DiscrepancyField(const at::Tensor& lengthscales, std::int64_t count,
                   const DiscrepancyOptions& options);
  std::int64_t count() const { return weights_.size(0); }
  std::int64_t dimensions() const { return frequencies_.size(1); }
  at::Device device() const { return weights_.device(); }
  /// delta_{members_b}(v_bp, t_bp) [B, P] for v [B, P, D] (double), members [B] (int64 in
  /// [0, S)) and t a double scalar (0-dim) or [B, P]; differentiable with respect to v.
  at::Tensor evaluate(const at::Tensor& v, const at::Tensor& members, const at::Tensor& t) const;
  /// out[p] += delta_member(v_p, t) for v [D, P] row-major on plain arrays (out [P]): the
  /// values of evaluate to rounding, the cosines by ATen's vectorised kernel per block of
  /// [rows, F] angles. Safe to call from several threads at once.
  void add_values(std::int64_t member, const double* v, std::int64_t points, double t,
                  double* out) const;

 private:
  at::Tensor frequencies_;       ///< omega [S, D, F]
  at::Tensor phases_;            ///< b [S, 1, F]
  at::Tensor time_frequencies_;  ///< nu [S, 1, F] (zeros for T = 0)
  at::Tensor weights_;           ///< tau sqrt(2 / F) a [S, F, 1]
  /// The same on the CPU as plain arrays, member after member: omega [S, D, F], b, nu and
  /// the weights [S, F] each.
  std::vector<double> frequency_values_, phase_values_, time_frequency_values_, weight_values_;
};

/// Operator samples with the discrepancy added: member b is g_b + delta_{members_b}.
class SamplesWithDiscrepancy final : public FunctionSamples {
 public:
  /// members [B] int64, B = samples->count(). Throws std::invalid_argument for null
  /// parts, another B or D, or members outside [0, field->count()).
  SamplesWithDiscrepancy(std::shared_ptr<const FunctionSamples> samples,
                         std::shared_ptr<const DiscrepancyField> field, at::Tensor members);
  std::int64_t count() const override { return samples_->count(); }
  std::int64_t dimensions() const override { return samples_->dimensions(); }
  /// At t = 0.
  at::Tensor evaluate(const at::Tensor& v) const override;
  at::Tensor evaluate_at(const at::Tensor& v, const at::Tensor& t) const override;
  /// Where the underlying samples do (the field always does).
  bool evaluates_values() const override { return samples_->evaluates_values(); }
  /// g_s(v, t) + delta_{members_s}(v, t) on plain arrays: v [D, P] row-major, out [P].
  void evaluate_values(std::int64_t s, const double* v, std::int64_t points, double t,
                       double* out) const override;
  /// The members of the underlying samples with their discrepancies.
  std::shared_ptr<const FunctionSamples> select(const at::Tensor& members) const override;

 private:
  std::shared_ptr<const FunctionSamples> samples_;
  std::shared_ptr<const DiscrepancyField> field_;
  at::Tensor members_;
  std::vector<std::int64_t> member_values_;  ///< members_ as plain integers
};

}  // namespace bhpm::gp
