#include "eval/metrics_file.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>
#include <stdexcept>

namespace bhpm::eval {

namespace {

void flatten(const nlohmann::json& object, const std::string& prefix,
             std::map<std::string, double>& numbers) {
  for (const auto& [key, value] : object.items()) {
    const std::string path = prefix.empty() ? key : prefix + "." + key;
    if (value.is_number())
      numbers[path] = value.get<double>();
    else if (value.is_null())
      numbers[path] = std::numeric_limits<double>::quiet_NaN();
    else if (value.is_object())
      flatten(value, path, numbers);
  }
}

}  // namespace

std::map<std::string, double> read_metrics_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot open the metrics file");
  const nlohmann::json json = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) throw std::runtime_error(path + ": not a JSON object (a metrics file of `bhpm evaluate`)");
  std::map<std::string, double> numbers;
  flatten(json, "", numbers);
  return numbers;
}

double metric(const std::map<std::string, double>& metrics, const std::string& key,
              const std::string& source) {
  const auto found = metrics.find(key);
  if (found == metrics.end()) throw std::runtime_error(source + ": no number \"" + key + "\"");
  return found->second;
}

}  // namespace bhpm::eval
