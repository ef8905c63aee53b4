#pragma once
/// refinement.png (the paper's Fig. 3b, "convergence of solution samples due to operator
/// sample refinement"), from a `bhpm refinement-study` file: left, the relative RMSE between
/// the solutions of one operator sample at successive tolerances delta_c of Algorithm 1
/// against delta_c, log-log, one line per sample (undefined at the first tolerance, which
/// has no predecessor); right, the number of conditioning points n_c each sample needed.

#include <string>

#include "report/figure_writer.h"

namespace bhpm::report {

/// Draws refinement.png from a file of format bhpm-refinement-study.
Figure draw_refinement_figure(FigureWriter& writer, const std::string& study_path);

}  // namespace bhpm::report
