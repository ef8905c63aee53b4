#pragma once
/// `bhpm calibrate` on the training experiments' measurements alone (predict.
/// calibration_method = "operator", the default, on any dataset): the
/// spread inflation kappa from the left-out posteriors' residuals and samples at the
/// training experiments' leaf rows (solve/operator_calibration.h;
/// docs/calibration.md, "Calibration from measurements").

#include <cstdint>
#include <string>
#include <vector>

#include "model/leaf_model.h"
#include "pde/measured_experiment.h"
#include "pipeline/run_folder.h"
#include "solve/discrepancy_calibration.h"

namespace bhpm::pipeline {

/// predict.calibration_method resolved for the dataset at `data_path`: "auto" (the name
/// run folders written before "operator" became the default store) is "operator" on every
/// dataset. Throws std::invalid_argument naming the file, the setting and the rule for
/// "trajectories" on a dataset of measurements only (version 2: no solution grid).
std::string resolved_calibration_method(const std::string& choice, const std::string& data_path);

/// Why the training set of `data_path` cannot be calibrated from its measurements (fewer
/// than 2 experiments: leaving one out leaves nothing), or "" when it can.
std::string operator_calibration_refusal(const std::string& data_path);

/// The operator calibration of the trained run (its root and trained `leaves`) on its
/// training experiments' `measured` points, read from `source` (the leaves' measurements as
/// in training: each experiment's first n_st points, n_st the fewest any experiment holds;
/// predict.calibration_samples pathwise samples of predict.features features, seeded by the
/// run's seed), with discrepancy order `order` recorded. The caller checks
/// operator_calibration_refusal first.
solve::DiscrepancyCalibration calibrate_from_measurements(
    const TrainedRun& run, const model::LeafModel& leaves,
    const std::vector<pde::MeasuredExperiment>& measured, const std::string& source,
    std::int64_t order);

}  // namespace bhpm::pipeline
