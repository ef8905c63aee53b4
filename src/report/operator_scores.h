#pragma once
/// The operator metrics of `bhpm evaluate` (RUN_DIR/metrics.json, and metrics-train.json
/// for the training grids) as the report reads them.

#include <string>

namespace bhpm::report {

/// Scores of the root's predictive on one set of grid points (docs/run-folder.md,
/// "metrics.json"). A number the file lacks or stores as null is NaN.
struct OperatorScores {
  std::string file;
  std::string true_equation;  ///< "" when absent
  std::string learned_mean;   ///< "" when absent
  double points;
  double rmse, relative_rmse, median_nlpd, mean_nlpd;
  double coverage50, coverage90, coverage95;  ///< empirical fractions inside the central intervals
};

/// Reads a metrics file; throws std::runtime_error naming the file for text that is not a
/// JSON object and naming the key for a value of the wrong type.
OperatorScores read_operator_scores(const std::string& path);

}  // namespace bhpm::report
