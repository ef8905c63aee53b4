#pragma once
/// `bhpm predict` for a field system (docs/systems.md, "Predicting with a system"): the
/// initial fields from --ic (an expression per field), --ic-file (a CSV column per field)
/// or --ic-from (a stored experiment, whose solution the prediction is scored against),
/// solved by pipeline/system_prediction.h under the roots' means and samples and written
/// by pipeline/system_prediction_file.h.

#include "cli/predict_command.h"

namespace bhpm::cli {

/// Returns the exit code; errors are thrown to the caller that prints them.
int run_system_prediction(const PredictCommandOptions& options);

}  // namespace bhpm::cli
