#include "solve/operator_calibration.h"

#include <stdexcept>
#include <string>

namespace bhpm::solve {

OperatorCalibration calibrate_operator(const std::vector<gp::ScoredResiduals>& experiments) {
  if (experiments.size() < 2)
    throw std::invalid_argument(
        "operator calibration: needs the left-out residuals of 2 training experiments (got " +
        std::to_string(experiments.size()) + ")");
  OperatorCalibration calibration;
  for (const gp::ScoredResiduals& scored : experiments)
    calibration.experiments.push_back(gp::fit_variance_inflation(scored));
  const gp::ScoredResiduals all = gp::pooled(experiments);
  calibration.pooled = gp::fit_variance_inflation(all);
  for (const double level : kOperatorCoverageLevels) {
    calibration.plain_coverage.push_back(gp::inflated_coverage(all, 1.0, level));
    calibration.inflated_coverage.push_back(
        gp::inflated_coverage(all, calibration.pooled.factor, level));
  }
  return calibration;
}

}  // namespace bhpm::solve
