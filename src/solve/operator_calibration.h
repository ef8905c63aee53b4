#pragma once
/// The spread inflation of the operator samples fitted on the training experiments'
/// measurements alone, without solving anything (docs/numerics.md, "Calibration from
/// measurements"; `bhpm calibrate` with predict.calibration = "operator", and "auto" on a
/// dataset without solution grids). Each experiment e's leaf rows, scored by the root's
/// posterior fitted without them (model/left_out_residuals.h), give residuals r_p with
/// function variance s_p^2 and noise variance n_p; one kappa for all experiments,
///   kappa = argmax_{kappa >= 1} sum_{e,p} ln N(r_ep; 0, kappa s_ep^2 + n_ep)
/// (gp/variance_inflation.h), scales every operator sample's deviation from the posterior
/// mean (gp/inflated_samples.h): f'_s = m + sqrt(kappa) (f_s - m). It is the form of
/// step 5 of the trajectory calibration (solve/discrepancy_calibration.h) measured on the
/// operator where that one is measured on the ensembles' solutions: the ratio of a left-out
/// posterior's error to its own spread, which carries over to a new initial condition
/// predicted by the posterior of all N experiments, wide off the data and narrow on it.

#include <cstdint>
#include <vector>

#include "gp/variance_inflation.h"

namespace bhpm::solve {

/// The nominal levels whose pooled coverage calibrate prints and stores.
inline const std::vector<double> kOperatorCoverageLevels = {0.5, 0.95};

struct OperatorCalibration {
  gp::VarianceInflationFit pooled;                    ///< kappa over every experiment's rows
  std::vector<gp::VarianceInflationFit> experiments;  ///< [N] each experiment's alone
  /// [level] pooled coverage of the central intervals of N(0, s^2 + n) (plain) and of
  /// N(0, kappa s^2 + n) (inflated), at kOperatorCoverageLevels.
  std::vector<double> plain_coverage, inflated_coverage;
};

/// The fit from one gp::ScoredResiduals per training experiment (N >= 2). Throws
/// std::invalid_argument for fewer than 2 experiments and as gp::fit_variance_inflation.
OperatorCalibration calibrate_operator(const std::vector<gp::ScoredResiduals>& experiments);

}  // namespace bhpm::solve
