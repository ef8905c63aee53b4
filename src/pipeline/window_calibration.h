#pragma once
/// `bhpm calibrate` with predict.calibration_method = "windows" (docs/calibration.md,
/// "Calibration on the experiments' windows"): every training experiment predicted on its
/// own window from its leaf's u0 and boundary data (pipeline/window_problem.h) by the root's
/// posterior without its rows (pipeline/left_out_roots.h), predict.calibration_samples
/// pathwise samples at kappa = 1, and kappa fitted on the ensembles' errors at the
/// experiment's own measurements (solve/window_calibration.h). Measurements alone suffice;
/// held-out experiments are never read.

#include <functional>
#include <string>

#include "pipeline/run_calibration.h"
#include "pipeline/run_folder.h"

namespace bhpm::pipeline {

/// The window route on the training set of `data_path` (2 experiments or more:
/// operator_calibration_refusal says why not); `progress` gets the ensembles' progress
/// lines. An experiment with fewer than 2 sound members on its window is left out of the fit
/// (WindowCalibration::left_out); throws std::runtime_error when every one is.
RunCalibration calibrate_by_windows(const std::string& run_dir, const TrainedRun& run,
                                    const std::string& data_path,
                                    const std::function<void(const std::string&)>& progress);

}  // namespace bhpm::pipeline
