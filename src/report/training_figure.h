#pragma once
/// training.png: the training curves of a run, one panel per phase whose history file
/// exists (history-leaves.csv, history-exact_gp.csv, history-joint.csv;
/// model/training_history.h): the phase's objective against the iteration (left axis) and
/// its noise scales (every column named sigma...: the leaves' sigma[i], the root's sigma_f)
/// on a logarithmic right axis.

#include <string>
#include <vector>

#include "report/figure_writer.h"

namespace bhpm::report {

/// One phase's curve file and the phase's name as a panel title.
struct TrainingCurve {
  std::string phase;  ///< "leaves", "exact_gp", "joint"
  std::string path;   ///< its history CSV
};

/// Draws training.png from `curves` (at least one). Throws std::invalid_argument naming
/// the file, line and column for a history without an iteration or objective column or
/// with a field that is not a number.
Figure draw_training_figure(FigureWriter& writer, const std::vector<TrainingCurve>& curves);

}  // namespace bhpm::report
