#include "eval/metrics_json.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

#include "io/json_number.h"
#include "util/number_format.h"

namespace bhpm::eval {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::set<std::string> kMetricKeys = {
    "points",    "rmse",     "relative_rmse",      "median_nlpd",
    "mean_nlpd", "coverage", "rmse_per_experiment"};

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

/// `value` as JSON: null when not finite (nlohmann writes NaN and infinities as null too;
/// stated here so the rule does not depend on it).
/// The number under `key` of `object`; NaN when absent or null.
double number_at(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nan("");
  if (!found->is_number())
    throw std::runtime_error(where + ": \"" + key + "\" is " + found->type_name() +
                             ", expected a number");
  return found->get<double>();
}

std::string string_at(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return "";
  if (!found->is_string())
    throw std::runtime_error(where + ": \"" + key + "\" is " + found->type_name() +
                             ", expected a string");
  return found->get<std::string>();
}

json parse_object(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot be read");
  const json document = json::parse(file, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    throw std::runtime_error(path + ": not a JSON object (expected the output of `bhpm evaluate`)");
  return document;
}

}  // namespace

std::string metrics_json(const OperatorMetrics& metrics,
                         const std::vector<std::pair<std::string, std::string>>& context,
                         const std::vector<double>& per_experiment_rmse) {
  check_context(context);
  ordered_json document = ordered_json::object();
  for (const auto& [key, value] : context) document[key] = value;
  document["points"] = metrics.points;
  document["rmse"] = io::finite_or_null(metrics.rmse);
  document["relative_rmse"] = io::finite_or_null(metrics.relative_rmse);
  document["median_nlpd"] = io::finite_or_null(metrics.median_nlpd);
  document["mean_nlpd"] = io::finite_or_null(metrics.mean_nlpd);
  ordered_json coverage = ordered_json::object();
  for (const auto& [level, fraction] : metrics.coverage)
    coverage[ordered_json(level).dump()] = io::finite_or_null(fraction);
  document["coverage"] = coverage;
  ordered_json per_experiment = ordered_json::array();
  for (const double rmse : per_experiment_rmse) per_experiment.push_back(io::finite_or_null(rmse));
  document["rmse_per_experiment"] = per_experiment;
  return document.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string metrics_comparison_table(
    const std::vector<std::pair<std::string, OperatorMetrics>>& columns) {
  const auto pad = [](const std::string& text, std::size_t width) {
    return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
  };
  const auto row = [&](const std::string& label, const auto& cell) {
    std::string line = pad(label, 16);
    for (const auto& column : columns) line += pad(cell(column), 14);
    return line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  };
  const auto metric = [](const auto& get) {
    return
        [get](const std::pair<std::string, OperatorMetrics>& column) { return get(column.second); };
  };
  std::string out = row("", [](const auto& column) { return column.first; });
  out += row("points", metric([](const OperatorMetrics& m) { return std::to_string(m.points); }));
  const auto significant = [&](double OperatorMetrics::*field) {
    return metric(
        [field](const OperatorMetrics& m) { return util::format_significant(m.*field, 4); });
  };
  out += row("RMSE", significant(&OperatorMetrics::rmse));
  out += row("relative RMSE", significant(&OperatorMetrics::relative_rmse));
  out += row("median NLPD", significant(&OperatorMetrics::median_nlpd));
  out += row("mean NLPD", significant(&OperatorMetrics::mean_nlpd));
  const auto& levels = columns.front().second.coverage;
  for (std::size_t level = 0; level < levels.size(); ++level)
    out += row("coverage " + util::format_significant(100.0 * levels[level].first, 6) + "%",
               metric([level](const OperatorMetrics& m) {
                 return util::format_fixed(100.0 * m.coverage.at(level).second, 1) + "%";
               }));
  return out;
}

namespace {

/// The scores of one metrics object, `where` naming it in errors.
OperatorScores scores_of(const json& document, const std::string& path, const std::string& where) {
  OperatorScores scores;
  scores.file = path;
  scores.true_equation = string_at(document, "true_equation", where);
  scores.learned_mean = string_at(document, "learned_mean", where);
  scores.points = number_at(document, "points", where);
  scores.rmse = number_at(document, "rmse", where);
  scores.relative_rmse = number_at(document, "relative_rmse", where);
  scores.median_nlpd = number_at(document, "median_nlpd", where);
  scores.mean_nlpd = number_at(document, "mean_nlpd", where);
  const auto found = document.find("coverage");
  const json coverage = found == document.end() || found->is_null() ? json::object() : *found;
  if (!coverage.is_object())
    throw std::runtime_error(where + ": \"coverage\" is " + std::string(coverage.type_name()) +
                             ", expected an object");
  const std::string levels = where + ":coverage";
  scores.coverage50 = number_at(coverage, "0.5", levels);
  scores.coverage90 = number_at(coverage, "0.9", levels);
  scores.coverage95 = number_at(coverage, "0.95", levels);
  return scores;
}

}  // namespace

OperatorScores read_operator_scores(const std::string& path) {
  return scores_of(parse_object(path), path, path);
}

namespace {

/// Each field's scores of a field system's metrics `document` read from `path`.
std::vector<std::pair<std::string, OperatorScores>> field_scores_of(const json& document,
                                                                    const std::string& path) {
  const auto fields = document.find("fields");
  if (fields == document.end() || !fields->is_object())
    throw std::runtime_error(path + ": no \"fields\" object (not a field system's metrics)");
  std::vector<std::pair<std::string, OperatorScores>> scores;
  for (const auto& [field, object] : fields->items()) {
    const std::string where = path + ":fields." + field;
    if (!object.is_object()) throw std::runtime_error(where + ": expected an object");
    scores.emplace_back(field, scores_of(object, path, where));
  }
  return scores;
}

}  // namespace

std::vector<std::pair<std::string, OperatorScores>> read_field_operator_scores(
    const std::string& path) {
  return field_scores_of(parse_object(path), path);
}

OperatorScores read_pooled_operator_scores(const std::string& path) {
  const json document = parse_object(path);
  if (!document.contains("fields")) return scores_of(document, path, path);
  const auto fields = field_scores_of(document, path);
  OperatorScores pooled{};
  pooled.file = path;
  double squares = 0;
  for (const auto& [field, scores] : fields) {
    pooled.points += scores.points;
    squares += scores.rmse * scores.rmse;
    pooled.mean_nlpd += scores.mean_nlpd;
    pooled.median_nlpd += scores.median_nlpd;
    pooled.coverage50 += scores.coverage50;
    pooled.coverage90 += scores.coverage90;
    pooled.coverage95 += scores.coverage95;
  }
  const double q = static_cast<double>(fields.size());
  pooled.rmse = std::sqrt(squares / q);
  pooled.relative_rmse = std::nan("");
  for (double* mean : {&pooled.mean_nlpd, &pooled.median_nlpd, &pooled.coverage50,
                       &pooled.coverage90, &pooled.coverage95})
    *mean /= q;
  return pooled;
}

}  // namespace bhpm::eval
