#include "pipeline/mean_conservation.h"

#include "model/leaf_data.h"
#include "model/mean_drift.h"
#include "model/total_derivative_residual.h"

namespace bhpm::pipeline {

namespace {

MeanConservation from_drift(const model::MeanDrift& drift) {
  return {ConservationTest::kLeafMeanDrift, drift.relative(), model::kConservedMeanTolerance,
          drift.conserved()};
}

/// Whether every window spans the [domain] box's period.
bool whole_periods(const std::vector<pde::MeasuredExperiment>& measured,
                   const config::SimulateConfig& domain) {
  const double period = domain.x_max - domain.x_min;
  for (const pde::MeasuredExperiment& experiment : measured)
    if (experiment.window.x_max - experiment.window.x_min < kWholePeriodFraction * period)
      return false;
  return true;
}

}  // namespace

MeanConservation measured_mean_conservation(const model::LeafModelImpl& leaves,
                                            const std::vector<pde::MeasuredExperiment>& measured,
                                            const gp::SparseVariationalGpImpl& root,
                                            const config::RunConfig& config) {
  const std::vector<nn::DomainBox> boxes = model::domain_boxes(measured);
  if (whole_periods(measured, config.simulate))
    return from_drift(model::leaf_mean_drift(leaves, boxes));
  const model::TotalDerivativeResidual residual =
      model::root_total_derivative_residual(leaves, boxes, root);
  return {ConservationTest::kRootTotalDerivative, residual.relative,
          model::kTotalDerivativeTolerance, residual.conserved()};
}

MeanConservation grid_mean_conservation(const model::LeafModelImpl& leaves,
                                        const pde::ExperimentSet& set) {
  return from_drift(model::leaf_mean_drift(
      leaves, std::vector<nn::DomainBox>(static_cast<std::size_t>(set.u.size(0)),
                                         model::domain_box(pde::grid_window(set)))));
}

}  // namespace bhpm::pipeline
