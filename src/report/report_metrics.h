#pragma once
/// The numbers of the report's metrics table, and report/metrics.json, which holds exactly
/// those numbers for scripts and tests.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eval/metrics_json.h"
#include "report/prediction_file.h"

namespace bhpm::report {

struct ReportMetrics {
  std::optional<eval::OperatorScores> held_out;       ///< RUN_DIR/metrics.json
  std::optional<eval::OperatorScores> training_grid;  ///< RUN_DIR/metrics-train.json
  /// A field system's RUN_DIR/metrics.json: each field's scores (its u_i,t), by name.
  std::vector<std::pair<std::string, eval::OperatorScores>> held_out_fields;
  std::vector<PredictionSummary> predictions;  ///< one per prediction file
};

/// report/metrics.json (2-space indentation; NaN and infinities as null):
///   {
///     "run_dir": "...",
///     "operator": {                       (keys present when the file was)
///       "held_out":      {"file", "points", "rmse", "relative_rmse", "median_nlpd",
///                         "mean_nlpd", "coverage": {"0.5", "0.9", "0.95"}},
///       "training_grid": {same keys}
///     },
///     "predictions": [{"file", "initial_condition", "sampler", "solver", "samples",
///                      "diverged", "rejected", "repaired", "outside_coverage",
///                      "relative_l2", "rmse",
///                      "coverage95", "rms_std", "rmse_over_rms_std", "crps"}, ...]
///   }
std::string report_metrics_json(const std::string& run_dir, const ReportMetrics& metrics);

}  // namespace bhpm::report
