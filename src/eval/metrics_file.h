#pragma once
/// Reading a metrics file (`bhpm evaluate`'s JSON, eval/metrics_json.h) back as numbers,
/// for sweeps and reports.

#include <map>
#include <string>

namespace bhpm::eval {

/// Every number of the file's top level and of its nested objects, keyed by its path:
/// "rmse", "mean_nlpd", "coverage.0.95", ...; arrays are skipped and null (a NaN written
/// by metrics_json) reads as NaN. Throws std::runtime_error naming the file when it is
/// missing or not a JSON object.
std::map<std::string, double> read_metrics_file(const std::string& path);

/// The number `key` of `metrics`; throws std::runtime_error naming `source` and the key.
double metric(const std::map<std::string, double>& metrics, const std::string& key,
              const std::string& source);

}  // namespace bhpm::eval
