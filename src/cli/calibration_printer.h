#pragma once
/// What `bhpm calibrate` prints of a calibration, by either route
/// (solve/discrepancy_calibration.h): every fitted variance and timescale with its misfit
/// and bins, the spread factor, the transfer check and the form kept.

#include "solve/discrepancy_calibration.h"

namespace bhpm::cli {

/// The calibration on stdout: each experiment's candidate spreads, the fits and the form kept.
void print_calibration(const solve::DiscrepancyCalibration& calibration);

/// An operator-route calibration (pipeline/calibration_from_measurements.h) on stdout: per
/// experiment its error and spread by fifth of its window and its own kappa, then the kappa
/// kept.
void print_operator_calibration(const solve::DiscrepancyCalibration& calibration);

/// A window-route calibration (pipeline/window_calibration.h) on stdout: per experiment its
/// measurements' RMS error, spread and noise, their coverage at kappa = 1 and its own kappa,
/// then the kappa kept with the pooled coverage before and after.
void print_window_calibration(const solve::DiscrepancyCalibration& calibration);

}  // namespace bhpm::cli
