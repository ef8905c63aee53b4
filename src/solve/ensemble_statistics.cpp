#include "solve/ensemble_statistics.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/number_format.h"
#include "util/student_t.h"

namespace bhpm::solve {

namespace {

/// Sound members of |u| near 1e300 (an initial condition of that size) square past the
/// largest double: their spread is then not a number to print or band with.
void require_finite_spread(const EnsembleStatistics& statistics, const at::Tensor& members) {
  const at::Tensor bad =
      ~(at::isfinite(statistics.mean) & at::isfinite(statistics.standard_deviation));
  if (!bad.any().item<bool>()) return;
  const at::Tensor first = bad.nonzero()[0];  // [2]: time index, grid point
  throw std::runtime_error(
      "ensemble statistics: the members' mean or spread overflows at time index " +
      std::to_string(first[0].item<std::int64_t>()) + ", grid point " +
      std::to_string(first[1].item<std::int64_t>()) + " (the solutions reach |u| = " +
      util::format_significant(members.abs().max().item<double>(), 3) +
      ", whose squares double arithmetic cannot hold): rescale u0");
}

}  // namespace

EnsembleStatistics ensemble_statistics(const EnsembleSolution& ensemble) {
  const at::Tensor members = ensemble.u.index({~ensemble.left_out()});  // [S', T, n]
  if (members.size(0) == 0)
    throw std::runtime_error("ensemble statistics: every one of the " +
                             std::to_string(ensemble.u.size(0)) +
                             " members diverged or was rejected");
  EnsembleStatistics statistics;
  statistics.members = members.size(0);
  statistics.mean = members.mean(0);
  statistics.standard_deviation =
      statistics.members > 1 ? members.std(0, /*unbiased=*/true) : at::zeros_like(statistics.mean);
  require_finite_spread(statistics, members);
  const at::Tensor levels = at::tensor({0.025, 0.5, 0.975}, members.options());
  const at::Tensor quantiles = at::quantile(members, levels, 0);  // [3, T, n], linear
  statistics.lower = quantiles[0];
  statistics.median = quantiles[1];
  statistics.upper = quantiles[2];
  const double factor = prediction_band_factor(statistics.members, 0.95);
  statistics.band_lower = statistics.mean - factor * statistics.standard_deviation;
  statistics.band_upper = statistics.mean + factor * statistics.standard_deviation;
  return statistics;
}

double prediction_band_factor(std::int64_t members, double p) {
  if (members < 2) return 0.0;
  const auto m = static_cast<double>(members);
  return util::student_t_quantile(0.5 * (1.0 + p), m - 1.0) * std::sqrt(1.0 + 1.0 / m);
}

TruthComparison compare_with_truth(const EnsembleStatistics& statistics, const at::Tensor& truth) {
  if (!truth.sizes().equals(statistics.mean.sizes())) {
    std::ostringstream message;
    message << "ensemble comparison: the true solution has shape " << truth.sizes()
            << ", the ensemble " << statistics.mean.sizes();
    throw std::invalid_argument(message.str());
  }
  const at::Tensor error = statistics.mean - truth;
  TruthComparison comparison;
  comparison.relative_l2 = (error.norm() / truth.norm()).item<double>();
  comparison.rmse = error.square().mean().sqrt().item<double>();
  comparison.band_coverage = ((truth >= statistics.band_lower) & (truth <= statistics.band_upper))
                                 .to(at::kDouble)
                                 .mean()
                                 .item<double>();
  return comparison;
}

}  // namespace bhpm::solve
