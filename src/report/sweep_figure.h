#pragma once
/// The figure of a sweep (paper Fig. 2): the held-out RMSE and MNLP of the learned
/// operator against the varied setting, the mean of the repeats joined by a line and
/// their range (min to max) as error bars.

#include <string>
#include <vector>

#include "eval/sweep_summary.h"

namespace bhpm::report {

/// Draws `folder`/sweep.png (data and script under `folder`/data) and returns its path.
/// The x axis is the value when every value is a number (logarithmic when all are
/// positive and span more than a factor of 10), else the values as labels in their order.
/// Values without a finished repeat are left out. Throws std::invalid_argument when no
/// value has one, std::runtime_error when gnuplot fails.
std::string draw_sweep_figure(const std::string& folder, const std::string& key,
                              const std::vector<eval::SweepRow>& rows,
                              const std::string& gnuplot = "gnuplot");

}  // namespace bhpm::report
