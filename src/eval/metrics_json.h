#pragma once
/// The operator metrics as a JSON file and as a table for the terminal.

#include <string>
#include <utility>
#include <vector>

#include "eval/operator_metrics.h"

namespace bhpm::eval {

/// Pretty-printed JSON (2-space indentation, trailing newline):
///   {
///     <context keys>: "<string>", ...     e.g. "data": "test.h5", "equation": "u_t = ..."
///     "points": P,
///     "rmse": ..., "relative_rmse": ..., "median_nlpd": ..., "mean_nlpd": ...,
///     "coverage": {"0.5": <empirical fraction>, "0.9": ..., ...},
///     "rmse_per_experiment": [...]
///   }
/// Numbers read back exactly (json_number); NaN and infinities are written as null.
/// Throws std::invalid_argument naming the key when a context key is repeated or equals one
/// of the metric keys.
std::string metrics_json(const OperatorMetrics& metrics,
                         const std::vector<std::pair<std::string, std::string>>& context,
                         const std::vector<double>& per_experiment_rmse);

/// An aligned text table, one metric per line and one line per coverage level:
///   points          20100
///   RMSE            0.01234
///   ...
///   coverage        nominal 50%  empirical 48.7%
std::string metrics_table(const OperatorMetrics& metrics);

}  // namespace bhpm::eval
