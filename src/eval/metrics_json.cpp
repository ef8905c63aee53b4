#include "eval/metrics_json.h"

#include <cstdio>
#include <set>
#include <stdexcept>

#include "eval/json_text.h"

namespace bhpm::eval {

namespace {

const std::set<std::string> kMetricKeys = {"points",    "rmse",     "relative_rmse",
                                           "median_nlpd", "mean_nlpd", "coverage",
                                           "rmse_per_experiment"};

void check_context(const std::vector<std::pair<std::string, std::string>>& context) {
  std::set<std::string> seen;
  for (const auto& [key, value] : context) {
    if (kMetricKeys.count(key))
      throw std::invalid_argument("metrics JSON: context key \"" + key +
                                  "\" must differ from the metric keys");
    if (!seen.insert(key).second)
      throw std::invalid_argument("metrics JSON: context key \"" + key + "\" must be unique");
  }
}

std::string table_line(const char* label, const std::string& value) {
  char line[128];
  std::snprintf(line, sizeof line, "%-16s%s\n", label, value.c_str());
  return line;
}

std::string general(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

std::string metrics_json(const OperatorMetrics& metrics,
                         const std::vector<std::pair<std::string, std::string>>& context,
                         const std::vector<double>& per_experiment_rmse) {
  check_context(context);
  std::string out = "{\n";
  const auto member = [&out](const std::string& key, const std::string& value) {
    out += "  " + json_string(key) + ": " + value + ",\n";
  };
  for (const auto& [key, value] : context) member(key, json_string(value));
  member("points", std::to_string(metrics.points));
  member("rmse", json_number(metrics.rmse));
  member("relative_rmse", json_number(metrics.relative_rmse));
  member("median_nlpd", json_number(metrics.median_nlpd));
  member("mean_nlpd", json_number(metrics.mean_nlpd));

  std::string coverage = "{";
  for (std::size_t i = 0; i < metrics.coverage.size(); ++i)
    coverage += std::string(i ? "," : "") + "\n    " +
                json_string(json_number(metrics.coverage[i].first)) + ": " +
                json_number(metrics.coverage[i].second);
  member("coverage", coverage + (metrics.coverage.empty() ? "}" : "\n  }"));

  out += "  \"rmse_per_experiment\": [";
  for (std::size_t e = 0; e < per_experiment_rmse.size(); ++e)
    out += std::string(e ? "," : "") + "\n    " + json_number(per_experiment_rmse[e]);
  out += per_experiment_rmse.empty() ? "]\n" : "\n  ]\n";
  return out + "}\n";
}

std::string metrics_table(const OperatorMetrics& metrics) {
  std::string out = table_line("points", std::to_string(metrics.points));
  out += table_line("RMSE", general(metrics.rmse));
  out += table_line("relative RMSE", general(metrics.relative_rmse));
  out += table_line("median NLPD", general(metrics.median_nlpd));
  out += table_line("mean NLPD", general(metrics.mean_nlpd));
  for (const auto& [level, fraction] : metrics.coverage) {
    char text[64];
    std::snprintf(text, sizeof text, "nominal %g%%  empirical %.1f%%", 100.0 * level,
                  100.0 * fraction);
    out += table_line("coverage", text);
  }
  return out;
}

}  // namespace bhpm::eval
