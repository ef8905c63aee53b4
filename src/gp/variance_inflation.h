#pragma once
/// How far a GP's posterior variance understates its errors, measured on residuals it did
/// not see (docs/numerics.md, "Calibration from measurements"): residuals r_p of a
/// posterior with function variance s_p^2 and noise variance n_p (both known), modelled as
///   r_p ~ N(0, kappa s_p^2 + n_p),  p = 1..P,
/// give kappa by maximum likelihood,
///   kappa = argmax_{kappa >= lower} l(kappa),
///   l(kappa) = -1/2 sum_p [ln(kappa s_p^2 + n_p) + r_p^2 / (kappa s_p^2 + n_p)]
/// (the constant -P/2 ln(2 pi) left out). With n = 0 the maximiser is mean_p r_p^2 / s_p^2
/// exactly. The residuals of one experiment are correlated along its trajectory, so l is a
/// composite likelihood: its maximiser is consistent, its curvature is not a variance.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace bhpm::gp {

/// Residuals of a posterior at points it did not see, with its variances there: [P] each.
struct ScoredResiduals {
  at::Tensor residual;           ///< r = y - mean(x)
  at::Tensor function_variance;  ///< s^2 = var q(f(x))
  at::Tensor noise_variance;     ///< n: the likelihood's variance at x
};

struct VarianceInflationFit {
  double factor = 1;                ///< kappa, in [lower, kMaxVarianceInflation]
  double log_likelihood = 0;        ///< l(kappa)
  double plain_log_likelihood = 0;  ///< l(1): the posterior's own variance
  std::int64_t points = 0;          ///< P
};

/// The largest kappa searched (a posterior 1e8 times too sure is not calibrated by a factor).
constexpr double kMaxVarianceInflation = 1e8;

/// l(kappa) for residuals of equal shapes [P] (double).
double inflation_log_likelihood(const ScoredResiduals& scored, double factor);

/// The maximiser of l over [lower, kMaxVarianceInflation]: a grid of 0.01 decades, then
/// golden section in ln kappa about the best grid point (to about sqrt(machine epsilon)
/// relative: the maximum is flat). Throws std::invalid_argument unless
/// residual, function_variance and noise_variance are [P] double vectors of one length P >= 1 with
/// finite residuals, function variances >= 0, noise variances >= 0, s_p^2 + n_p > 0 everywhere, and
/// 0 < lower <= kMaxVarianceInflation.
VarianceInflationFit fit_variance_inflation(const ScoredResiduals& scored, double lower = 1.0);

/// The fraction of points whose |r_p| lies inside the central `level` interval of
/// N(0, kappa s_p^2 + n_p): erf(|r_p| / sqrt(2 (kappa s_p^2 + n_p))) <= level.
double inflated_coverage(const ScoredResiduals& scored, double factor, double level);

/// The experiments' residuals as one set (concatenated); throws std::invalid_argument
/// for an empty list.
ScoredResiduals pooled(const std::vector<ScoredResiduals>& experiments);

}  // namespace bhpm::gp
