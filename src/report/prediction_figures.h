#pragma once
/// The figures of one prediction file (the paper's Fig. 4, "predictions using the learned
/// physics under new initial conditions"):
///  - <stem>.png: the ensemble mean and its 95 % band (2.5 to 97.5 % quantiles of the
///    sound samples) against the true solution, when the file holds one, at four evenly
///    spaced output times including the first and the last, one panel per time;
///  - <stem>-std.png: heatmaps over (x, t) of the operator std (the root's posterior std
///    of f along the mean solution: where the prediction leans on extrapolated physics)
///    next to the ensemble std of u (where that uncertainty has gone in the solution);
///  - <stem>-boundary.png, on a bounded domain: u at each end over time (mean, 95 % band,
///    truth) with each boundary condition's data g(t).

#include <vector>

#include "report/figure_writer.h"
#include "report/prediction_file.h"

namespace bhpm::report {

/// Output times shown in <stem>.png.
inline constexpr std::size_t kProfileTimes = 4;

/// True when the ensemble statistics hold a finite value (false when every sample diverged).
bool has_statistics(const PredictionFile& prediction);

/// Draws <stem>.png, <stem>-std.png and, on a bounded domain, <stem>-boundary.png; the
/// prediction must have statistics.
std::vector<Figure> draw_prediction_figures(FigureWriter& writer, const PredictionFile& prediction);

}  // namespace bhpm::report
