#include "solve/ensemble_statistics.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bhpm::solve {

EnsembleStatistics ensemble_statistics(const EnsembleSolution& ensemble) {
  const at::Tensor sound =
      ensemble.diverged.defined() ? ~ensemble.diverged : at::ones({ensemble.u.size(0)}, at::kBool);
  const at::Tensor members = ensemble.u.index({sound});  // [S', T, n]
  if (members.size(0) == 0)
    throw std::runtime_error("ensemble statistics: every one of the " +
                             std::to_string(ensemble.u.size(0)) + " members diverged");
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
  return statistics;
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
  comparison.band_coverage = ((truth >= statistics.lower) & (truth <= statistics.upper))
                                 .to(at::kDouble)
                                 .mean()
                                 .item<double>();
  return comparison;
}

}  // namespace bhpm::solve
