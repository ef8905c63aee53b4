#pragma once
/// `bhpm calibrate RUN_DIR` on a field system's run (docs/systems.md, "Calibrating a
/// system's bands"): each field's spread factor kappa_i from its training experiments left
/// out one at a time (pipeline/system_calibration.h), written to
/// RUN_DIR/system-calibration.json, which `bhpm predict` then applies.

#include "cli/calibrate_command.h"

namespace bhpm::cli {

/// Returns the exit code; errors are thrown to the caller that prints them.
int run_system_calibration(const CalibrateCommandOptions& options);

}  // namespace bhpm::cli
