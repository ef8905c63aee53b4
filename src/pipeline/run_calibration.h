#pragma once
/// `bhpm calibrate`'s two routes on a trained run (docs/calibration.md, "Model discrepancy"
/// and "Calibration from measurements"): the spread factor kappa from the training
/// experiments' measurements alone (predict.calibration_method = "operator",
/// pipeline/calibration_from_measurements.h), or tau^2 / kappa from their solution grids
/// predicted by the left-out posteriors ("trajectories", solve/discrepancy_calibration.h,
/// steps 1-6). Each also measures whether the data conserve the spatial mean of u
/// (pipeline/mean_conservation.h), which decides conserve_mean under
/// predict.conservation = "auto".
/// Held-out experiments are never read.

#include <functional>
#include <string>

#include "pipeline/mean_conservation.h"
#include "pipeline/run_folder.h"
#include "solve/discrepancy_calibration.h"

namespace bhpm::pipeline {

/// A calibration and the test of the conserved mean it recorded.
struct RunCalibration {
  solve::DiscrepancyCalibration calibration;
  MeanConservation conservation;
};

/// `calibration` with the test's decision and value recorded (mean_drift or
/// total_derivative_residual, conserve_mean).
RunCalibration with_conservation(solve::DiscrepancyCalibration calibration,
                                 const MeanConservation& conservation);

/// The operator route on the training set of `data_path` (measurements only suffice).
/// Throws as calibrate_from_measurements.
RunCalibration calibrate_by_operator(const std::string& run_dir, const TrainedRun& run,
                                     const std::string& data_path);

/// The trajectory route on the training set of `data_path` (solution grids needed), with the
/// root's posteriors refitted without each experiment when predict.calibration_leave_one_out
/// (pipeline/left_out_roots.h); `progress` gets the ensembles' progress lines. Sets
/// run.config.predict.discrepancy to "none" (the calibration sets tau itself).
RunCalibration calibrate_by_trajectories(const std::string& run_dir, TrainedRun& run,
                                         const std::string& data_path,
                                         const std::function<void(const std::string&)>& progress);

}  // namespace bhpm::pipeline
