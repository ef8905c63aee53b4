#pragma once
/// What `bhpm calibrate` prints of a trajectory-route calibration
/// (solve/discrepancy_calibration.h): every fitted variance and timescale with its misfit
/// and bins, the spread factor, the transfer check and the form kept.

#include "solve/discrepancy_calibration.h"

namespace bhpm::cli {

/// The calibration on stdout: each experiment's candidate spreads, the fits and the form kept.
void print_calibration(const solve::DiscrepancyCalibration& calibration);

}  // namespace bhpm::cli
