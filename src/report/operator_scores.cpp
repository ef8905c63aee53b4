#include "report/operator_scores.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <stdexcept>

namespace bhpm::report {

namespace {

using nlohmann::json;

/// The number under `key` of `object`; NaN when absent or null.
double number_at(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nan("");
  if (!found->is_number())
    throw std::runtime_error(where + ": \"" + key + "\" is " + found->type_name() + ", expected a number");
  return found->get<double>();
}

std::string string_at(const json& object, const std::string& key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return "";
  if (!found->is_string())
    throw std::runtime_error(where + ": \"" + key + "\" is " + found->type_name() + ", expected a string");
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

OperatorScores read_operator_scores(const std::string& path) {
  const json document = parse_object(path);
  OperatorScores scores;
  scores.file = path;
  scores.true_equation = string_at(document, "true_equation", path);
  scores.learned_mean = string_at(document, "learned_mean", path);
  scores.points = number_at(document, "points", path);
  scores.rmse = number_at(document, "rmse", path);
  scores.relative_rmse = number_at(document, "relative_rmse", path);
  scores.median_nlpd = number_at(document, "median_nlpd", path);
  scores.mean_nlpd = number_at(document, "mean_nlpd", path);
  const auto found = document.find("coverage");
  const json coverage = found == document.end() || found->is_null() ? json::object() : *found;
  if (!coverage.is_object())
    throw std::runtime_error(path + ": \"coverage\" is " + std::string(coverage.type_name()) + ", expected an object");
  const std::string where = path + ":coverage";
  scores.coverage50 = number_at(coverage, "0.5", where);
  scores.coverage90 = number_at(coverage, "0.9", where);
  scores.coverage95 = number_at(coverage, "0.95", where);
  return scores;
}

}  // namespace bhpm::report
