#pragma once
/// What both `bhpm predict` paths (one field, cli/predict_command.cpp; a field system,
/// cli/system_prediction_command.cpp) read off the command line alike: where the file goes
/// and the settings' overrides.

#include <string>
#include <vector>

#include "cli/predict_command.h"

namespace bhpm::cli {

/// The prediction file: -o, or RUN_DIR/prediction.h5.
std::string prediction_output(const PredictCommandOptions& options);

/// --set's overrides, then the flags' ("predict.samples=16").
std::vector<std::string> prediction_overrides(const PredictCommandOptions& options);

}  // namespace bhpm::cli
