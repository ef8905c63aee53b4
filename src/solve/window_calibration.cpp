#include "solve/window_calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "util/student_t.h"

namespace bhpm::solve {

namespace {

void require_residuals(const WindowResiduals& e) {
  const std::string where =
      "window calibration: training experiment " + std::to_string(e.experiment);
  const std::size_t p = e.error.size();
  if (p == 0 || e.variance.size() != p || e.noise_variance.size() != p)
    throw std::invalid_argument(where +
                                ": error, variance and noise_variance need one and the same "
                                "length > 0");
  if (e.members < 2)
    throw std::invalid_argument(where + ": a sample variance needs 2 sound members, it has " +
                                std::to_string(e.members));
  for (std::size_t i = 0; i < p; ++i)
    if (!std::isfinite(e.error[i]) || !std::isfinite(e.variance[i]) || e.variance[i] < 0 ||
        !std::isfinite(e.noise_variance[i]) || e.noise_variance[i] < 0)
      throw std::invalid_argument(where + ": point " + std::to_string(i) +
                                  " has a non-finite error or a negative or non-finite variance");
}

/// Each measurement's least covering kappa at `level`, sorted (at most 0 where the noise and
/// the finite ensemble cover it at any kappa; +inf where no spread does: V_p = 0 and r_p
/// beyond the noise's band).
std::vector<double> covering_factors(const WindowResiduals& e, const CoverageLevel& level) {
  const double t =
      util::student_t_quantile(0.5 * (1.0 + level.level), static_cast<double>(e.members - 1));
  const double z = level.normal_quantile;
  const double mean_error = 1.0 / static_cast<double>(e.members);
  std::vector<double> factors(e.error.size());
  for (std::size_t i = 0; i < e.error.size(); ++i) {
    const double spread = t * t * e.variance[i];
    const double excess = e.error[i] * e.error[i] - z * z * e.noise_variance[i];
    if (spread > 0)
      factors[i] = excess / spread - mean_error;
    else
      factors[i] = excess <= 0 ? -std::numeric_limits<double>::infinity()
                               : std::numeric_limits<double>::infinity();
  }
  std::sort(factors.begin(), factors.end());
  return factors;
}

/// The share of `sorted` factors at most kappa.
double share_covered(const std::vector<double>& sorted, double kappa) {
  const auto covered = std::upper_bound(sorted.begin(), sorted.end(), kappa) - sorted.begin();
  return static_cast<double>(covered) / static_cast<double>(sorted.size());
}

/// [experiment][level] sorted covering factors.
using CoveringFactors = std::vector<std::vector<std::vector<double>>>;

CoveringFactors all_covering_factors(const std::vector<WindowResiduals>& experiments) {
  CoveringFactors factors;
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    require_residuals(experiments[e]);
    std::vector<std::vector<double>> per_level;
    for (const CoverageLevel& level : kCoverageLevels)
      per_level.push_back(covering_factors(experiments[e], level));
    factors.push_back(std::move(per_level));
  }
  return factors;
}

/// C_p(kappa) for level index l, experiments [first, last) weighted alike.
double coverage(const CoveringFactors& factors, std::size_t first, std::size_t last, double kappa,
                std::size_t l) {
  double sum = 0;
  for (std::size_t e = first; e < last; ++e) sum += share_covered(factors[e][l], kappa);
  return sum / static_cast<double>(last - first);
}

double misfit(const CoveringFactors& factors, std::size_t first, std::size_t last, double kappa) {
  double sum = 0;
  for (std::size_t l = 0; l < kCoverageLevels.size(); ++l) {
    const double gap = coverage(factors, first, last, kappa, l) - kCoverageLevels[l].level;
    sum += gap * gap;
  }
  return sum;
}

/// The least-misfit kappa on the log grid: the middle of the first run of grid points that
/// share the least misfit.
double best_factor(const CoveringFactors& factors, std::size_t first, std::size_t last) {
  const double decades = 2.0 * std::log10(kLargestFactor);
  const auto points = static_cast<std::int64_t>(decades * kGridPointsPerDecade) + 1;
  const auto at = [&](std::int64_t i) {
    return std::pow(10.0, -std::log10(kLargestFactor) +
                              static_cast<double>(i) / static_cast<double>(kGridPointsPerDecade));
  };
  double least = std::numeric_limits<double>::infinity();
  std::int64_t run_start = 0, run_end = 0;
  bool in_run = false;
  for (std::int64_t i = 0; i < points; ++i) {
    const double value = misfit(factors, first, last, at(i));
    if (value < least) {
      least = value;
      run_start = run_end = i;
      in_run = true;
    } else if (in_run && value == least) {
      run_end = i;
    } else {
      in_run = false;
    }
  }
  return at((run_start + run_end) / 2);
}

double root_mean(const std::vector<double>& values, bool squared) {
  double sum = 0;
  for (const double v : values) sum += squared ? v * v : v;
  return std::sqrt(sum / static_cast<double>(values.size()));
}

std::vector<double> coverages(const CoveringFactors& factors, std::size_t first, std::size_t last,
                              double kappa) {
  std::vector<double> result;
  for (std::size_t l = 0; l < kCoverageLevels.size(); ++l)
    result.push_back(coverage(factors, first, last, kappa, l));
  return result;
}

}  // namespace

double window_coverage(const std::vector<WindowResiduals>& experiments, double kappa,
                       const CoverageLevel& level) {
  if (experiments.empty() || !(kappa > 0))
    throw std::invalid_argument("window calibration: needs an experiment and kappa > 0");
  double sum = 0;
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    require_residuals(experiments[e]);
    sum += share_covered(covering_factors(experiments[e], level), kappa);
  }
  return sum / static_cast<double>(experiments.size());
}

WindowCalibration fit_window_inflation(const std::vector<WindowResiduals>& experiments) {
  if (experiments.empty())
    throw std::invalid_argument("window calibration: no training experiment to fit on");
  const CoveringFactors factors = all_covering_factors(experiments);
  const std::size_t count = experiments.size();
  WindowCalibration fit;
  fit.factor = best_factor(factors, 0, count);
  fit.coverage_before = coverages(factors, 0, count, 1.0);
  fit.coverage_after = coverages(factors, 0, count, fit.factor);
  for (std::size_t e = 0; e < count; ++e) {
    const WindowResiduals& residuals = experiments[e];
    WindowExperimentFit own;
    own.experiment = residuals.experiment;
    own.points = static_cast<std::int64_t>(residuals.error.size());
    own.members = residuals.members;
    own.rmse = root_mean(residuals.error, true);
    own.spread = root_mean(residuals.variance, false);
    own.noise = root_mean(residuals.noise_variance, false);
    own.factor = best_factor(factors, e, e + 1);
    own.coverage = coverages(factors, e, e + 1, 1.0);
    fit.experiments.push_back(own);
  }
  return fit;
}

}  // namespace bhpm::solve
