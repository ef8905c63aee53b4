#pragma once
/// Whether the training data conserve the spatial mean of u, which decides the samples'
/// projection u_t = f_s(v) - <f_s(v)>_x under predict.conservation = "auto"
/// (docs/calibration.md, "Conserved mean"). Two tests, by what the measurements cover:
///   every window a whole period of the [domain] box (its width at least
///   kWholePeriodFraction of x_max - x_min): the leaves' own mean drift
///   (model/mean_drift.h), which reads the data directly;
///   otherwise the flux through a window's ends moves its mean, and the root's posterior
///   mean is asked instead whether it is a total derivative along the leaves
///   (model/total_derivative_residual.h).

#include <vector>

#include "config/run_config.h"
#include "gp/sparse_variational_gp.h"
#include "model/leaf_model.h"
#include "pde/experiment_set.h"
#include "pde/measured_experiment.h"

namespace bhpm::pipeline {

/// A window at least this fraction of the period wide counts as the whole period (a
/// periodic grid's measurements reach x_max - dx).
constexpr double kWholePeriodFraction = 0.98;

/// Which test decided.
enum class ConservationTest { kLeafMeanDrift, kRootTotalDerivative };

struct MeanConservation {
  ConservationTest test = ConservationTest::kLeafMeanDrift;
  double value = 0;  ///< the leaves' relative drift, or rho
  double tolerance = 0;
  bool conserved = false;
};

/// The test that fits the windows of `measured` against `config`'s [domain].
MeanConservation measured_mean_conservation(const model::LeafModelImpl& leaves,
                                            const std::vector<pde::MeasuredExperiment>& measured,
                                            const gp::SparseVariationalGpImpl& root,
                                            const config::RunConfig& config);

/// The leaves' mean drift on the periodic grid of `set` (solution grids: whole periods).
MeanConservation grid_mean_conservation(const model::LeafModelImpl& leaves,
                                        const pde::ExperimentSet& set);

}  // namespace bhpm::pipeline
