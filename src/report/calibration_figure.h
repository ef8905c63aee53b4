#pragma once
/// How well a run's prediction bands hold the truth (docs/predictions.md, "Ensembles"): per
/// prediction file with a stored true solution, the empirical coverage of the central
/// p prediction bands mean -+ t_{m-1}((1 + p) / 2) sqrt(1 + 1/m) std over its m sound
/// samples at nominal levels p (a reliability diagram: calibrated bands lie on the
/// diagonal), the error/spread ratio RMSE(mean - truth) / RMS(std) at every output time
/// (1 when the spread matches the error; above 1 overconfident), and the fair CRPS. Output
/// time t = 0, the initial condition every sample matches, is left out. The figure also
/// pools every prediction (report/pooled_calibration.h).

#include <cstdint>
#include <string>
#include <vector>

#include "report/figure_writer.h"
#include "report/pooled_calibration.h"

namespace bhpm::report {

struct PredictionCalibration {
  std::string stem;                  ///< file name without ".h5"
  std::vector<double> levels;        ///< nominal p: 0.1, 0.2, .., 0.9, 0.95, 0.99
  std::vector<double> coverage;      ///< empirical coverage at each level
  std::vector<double> t;             ///< output times t > 0 [T - 1]
  std::vector<double> error_spread;  ///< [T - 1]
  /// Grid mean of E|X - y| - 1/2 E|X - X'| over the m sound samples X (pairs 1/(m(m-1))).
  double crps = 0;
  std::int64_t members = 0;  ///< m
  CalibrationSums sums;      ///< what the prediction adds to the pooled calibration
};

/// The calibration of the prediction file at `path`; its stem is empty when the file has
/// no truth or fewer than 2 sound samples (nothing to score). Throws naming the file and
/// the field for a malformed file.
PredictionCalibration prediction_calibration(const std::string& path);

/// reliability.png: the reliability diagram (left: one line per prediction and the pooled
/// one), error/spread against time (middle, one line per prediction) and the pooled rank
/// histogram (right); the caption prints the pooled scores. Throws std::invalid_argument
/// for an empty list.
Figure draw_calibration_figure(FigureWriter& writer,
                               const std::vector<PredictionCalibration>& predictions);

}  // namespace bhpm::report
