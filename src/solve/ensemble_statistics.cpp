#include "solve/ensemble_statistics.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/student_t.h"

namespace bhpm::solve {

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
