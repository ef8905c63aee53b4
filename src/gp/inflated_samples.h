#pragma once
/// Operator samples whose spread about the posterior mean is scaled by a calibrated factor
/// (docs/calibration.md, "Spread inflation"; solve/operator_calibration.h fits it; `bhpm
/// predict` uses it to narrow, kappa < 1, and gp/inflated_posterior.h to widen):
///   f'_s(v) = m(v) + a (f_s(v) - m(v)),  a = sqrt(kappa) > 0,
/// m(v) the sparse GP's posterior mean (gp/posterior_mean.h). When the f_s are draws of q(f), the
/// f'_s have the same mean and kappa times its covariance, kappa Cov_q(f(v), f(v')): the
/// posterior's own shape (wide off the data, narrow on it) at a calibrated level. Each f'_s is a
/// fixed, differentiable function of v, as f_s is. Cost: m(v) with every evaluation.

#include <ATen/core/Tensor.h>

#include <memory>
#include <vector>

#include "gp/function_samples.h"
#include "gp/kernel_expansion.h"
#include "gp/posterior_mean.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::gp {

class InflatedSamples final : public FunctionSamples {
 public:
  /// Scales the deviations of `samples` from `root`'s posterior mean by sqrt(`factor`).
  /// Throws std::invalid_argument for null samples, other input dimensions or a factor
  /// that is not positive and finite.
  InflatedSamples(std::shared_ptr<const FunctionSamples> samples,
                  const SparseVariationalGpImpl& root, double factor);
  std::int64_t count() const override { return samples_->count(); }
  std::int64_t dimensions() const override { return samples_->dimensions(); }
  at::Tensor evaluate(const at::Tensor& v) const override;
  at::Tensor evaluate_at(const at::Tensor& v, const at::Tensor& t) const override;
  /// f'_s = a f_s + (1 - a) m as one kernel expansion (gp/kernel_expansion.h), the
  /// inducing inputs' bumps merged, where the samples and m are expansions; null otherwise.
  const KernelExpansion* expansion(std::int64_t s) const override;
  /// The members of the underlying samples, inflated alike.
  std::shared_ptr<const FunctionSamples> select(const at::Tensor& members) const override;

 private:
  /// Sets expansions_ from the samples' and m's expansions where all have one.
  void combine_expansions();

  std::shared_ptr<const FunctionSamples> samples_;
  PosteriorMean mean_;                       ///< m
  double scale_;                             ///< sqrt(kappa)
  std::vector<KernelExpansion> expansions_;  ///< [S] f'_s, or empty (see expansion)
};

}  // namespace bhpm::gp
