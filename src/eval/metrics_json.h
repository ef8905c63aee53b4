#pragma once
/// metrics.json, the operator metrics of `bhpm evaluate` (docs/run-folder.md,
/// "metrics.json"): the one owner of the file, its writer and its reader (nlohmann-json),
/// and the metrics of one or more scorings as a table for the terminal.

#include <string>
#include <utility>
#include <vector>

#include "eval/operator_metrics.h"

namespace bhpm::eval {

/// Pretty-printed JSON (2-space indentation, trailing newline), keys in this order:
///   {
///     <context keys>: "<string>", ...     e.g. "data": "test.h5", "equation": "u_t = ..."
///     "points": P,
///     "rmse": ..., "relative_rmse": ..., "median_nlpd": ..., "mean_nlpd": ...,
///     "coverage": {"0.5": <empirical fraction>, "0.9": ..., ...},
///     "rmse_per_experiment": [...]
///   }
/// Numbers are the shortest text that reads back exactly; NaN and infinities, which JSON
/// cannot hold, are written as null. Throws std::invalid_argument naming the key when a
/// context key is repeated or equals one of the metric keys.
std::string metrics_json(const OperatorMetrics& metrics,
                         const std::vector<std::pair<std::string, std::string>>& context,
                         const std::vector<double>& per_experiment_rmse);

/// The metrics of several scorings side by side, one column each under its name:
///                   truth         truth-free
///   points          20100         16000
///   RMSE            0.01234       0.01561
///   ...
///   coverage 95%    96.5%         93.1%
/// Every column must have the coverage levels of the first.
std::string metrics_comparison_table(
    const std::vector<std::pair<std::string, OperatorMetrics>>& columns);

/// A metrics file as readers (report, sweep) use it. A number the file lacks or stores as
/// null is NaN; a string it lacks is "".
struct OperatorScores {
  std::string file;
  std::string true_equation;
  std::string learned_mean;
  double points;
  double rmse, relative_rmse, median_nlpd, mean_nlpd;
  double coverage50, coverage90, coverage95;  ///< empirical fractions inside the central intervals
};

/// Reads a metrics file; throws std::runtime_error naming the file for text that is not a
/// JSON object and naming the key for a value of the wrong type.
OperatorScores read_operator_scores(const std::string& path);

/// A field system's metrics file (pipeline/system_scoring.h: an object per field under
/// "fields"): each field's name and scores, by name; throws as above.
std::vector<std::pair<std::string, OperatorScores>> read_field_operator_scores(
    const std::string& path);

/// A metrics file's scores, read once: one field's as they are; a field system's pooled over
/// its fields (each scored at the same points): RMSE over every field's targets, mean NLPD
/// and coverages the means over the fields, median NLPD the mean of the fields' medians,
/// points their sum, relative RMSE NaN. Throws as above.
OperatorScores read_pooled_operator_scores(const std::string& path);

}  // namespace bhpm::eval
