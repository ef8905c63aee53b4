#pragma once
/// A prediction file (format bhpm-ensemble, written by `bhpm predict`; docs/run-folder.md)
/// as the report reads it, and the numbers of its row in the report's table.

#include <cmath>
#include <string>
#include <vector>

namespace bhpm::report {

/// The conditions at one end of a bounded domain: their texts ("u = 0") and their data g
/// at the output times, [C, T] row-major.
struct EndConditions {
  std::vector<std::string> conditions;
  std::vector<double> values;
};

/// The statistics of an ensemble of solutions of one IBVP on the grid x [n] by t [T];
/// every field is [T, n] row-major.
struct PredictionFile {
  std::string path;
  std::string stem;  ///< file name without ".h5", e.g. "prediction-test-0"
  std::vector<double> x, t;
  /// statistics/mean, std and the 95 % band (band_lower, band_upper; p2_5, p97_5 in older files)
  std::vector<double> mean, std, lower, upper;
  std::vector<double> operator_std;      ///< the root's posterior std along the mean
  std::vector<double> truth;             ///< truth/u; empty when the file has none
  double samples = 0, diverged = 0;      ///< S and how many blew up
  double rejected = 0;                   ///< how many were ill-posed (0 in older files)
  double repaired = 0;                   ///< how many were repaired (0 in older files)
  double outside_coverage;               ///< attribute; NaN in older files
  double relative_l2, rmse, coverage95;  ///< truth attributes; NaN without a truth
  /// A window's prediction against its experiment's measurements (/measurements): relative
  /// L2, RMSE and the fraction inside the band of a measurement; NaN without them.
  double measured_relative_l2, measured_rmse, measured_coverage95;
  bool held_back = false;  ///< those measurements were held back from every fit
  std::string initial_condition, sampler, solver, config;
  bool bounded = false;       ///< the file has /boundary: x[0] and x[n-1] are the ends
  EndConditions left, right;  ///< a bounded domain's conditions (empty ends: none)
};

/// Reads and checks a prediction file; throws naming the file and the field (format
/// attribute, array shapes).
PredictionFile read_prediction_file(const std::string& path);

/// The report's row for a prediction: the stored truth comparison and a calibration
/// check. RMSE / RMS(ensemble std) is about 1 when the 95 % band is as wide as the errors of
/// the mean (the errors of a calibrated ensemble are distributed like its spread), above 1
/// when the band is too narrow, below 1 when it is too wide. The root mean square (not the
/// mean) of the std is used because the RMSE is a root mean square too.
struct PredictionSummary {
  std::string file;  ///< file name, e.g. "prediction-test-0.h5"
  std::string initial_condition, sampler, solver;
  double samples = 0, diverged = 0, rejected = 0, repaired = 0;
  double outside_coverage;  ///< fraction of the path outside the data's coverage
  /// Against the truth; without one, against a window's measurements (`scored_on` says
  /// which); NaN without either.
  double relative_l2, rmse, coverage95;
  std::string scored_on;       ///< "truth", "measurements", "held-back measurements"
  double rms_std;              ///< sqrt(mean over (t, x) of std^2)
  double rmse_over_rms_std;    ///< NaN without a truth
  double crps = std::nan("");  ///< fair CRPS (report/calibration_figure.h); NaN without a truth
};
PredictionSummary summarize_prediction(const PredictionFile& prediction);

}  // namespace bhpm::report
