#include "report/report_metrics.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>

namespace bhpm::report {

namespace {

using json = nlohmann::ordered_json;  // keys in the order written

/// A count (points, samples) as a JSON integer; NaN as null.
json count(double value) {
  if (std::isfinite(value) && value == std::round(value) && std::abs(value) < 9.0e15)
    return static_cast<std::int64_t>(value);
  return value;
}

json operator_json(const eval::OperatorScores& scores) {
  return {{"file", std::filesystem::path(scores.file).filename().string()},
          {"points", count(scores.points)},
          {"rmse", scores.rmse},
          {"relative_rmse", scores.relative_rmse},
          {"median_nlpd", scores.median_nlpd},
          {"mean_nlpd", scores.mean_nlpd},
          {"coverage",
           {{"0.5", scores.coverage50}, {"0.9", scores.coverage90}, {"0.95", scores.coverage95}}}};
}

json prediction_json(const PredictionSummary& summary) {
  return {{"file", summary.file},
          {"initial_condition", summary.initial_condition},
          {"sampler", summary.sampler},
          {"solver", summary.solver},
          {"samples", count(summary.samples)},
          {"diverged", count(summary.diverged)},
          {"rejected", count(summary.rejected)},
          {"repaired", count(summary.repaired)},
          {"outside_coverage", summary.outside_coverage},
          {"scored_on", summary.scored_on},
          {"relative_l2", summary.relative_l2},
          {"rmse", summary.rmse},
          {"coverage95", summary.coverage95},
          {"rms_std", summary.rms_std},
          {"rmse_over_rms_std", summary.rmse_over_rms_std},
          {"crps", summary.crps}};
}

}  // namespace

std::string report_metrics_json(const std::string& run_dir, const ReportMetrics& metrics) {
  json operator_scores = json::object();
  if (metrics.held_out) operator_scores["held_out"] = operator_json(*metrics.held_out);
  if (metrics.training_grid)
    operator_scores["training_grid"] = operator_json(*metrics.training_grid);
  json predictions = json::array();
  for (const auto& summary : metrics.predictions) predictions.push_back(prediction_json(summary));
  const json document = {
      {"run_dir", run_dir}, {"operator", operator_scores}, {"predictions", predictions}};
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace bhpm::report
