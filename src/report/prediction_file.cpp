#include "report/prediction_file.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "report/input_file.h"

namespace bhpm::report {

namespace {

/// Root mean square of the finite values; NaN when there is none.
double root_mean_square(const std::vector<double>& values) {
  double sum = 0;
  std::size_t count = 0;
  for (const double value : values)
    if (std::isfinite(value)) {
      sum += value * value;
      ++count;
    }
  return count ? std::sqrt(sum / static_cast<double>(count)) : std::nan("");
}

void read_truth(const io::Hdf5Location& file, std::size_t times, std::size_t n,
                PredictionFile& prediction) {
  if (!file.has("truth")) return;
  const io::Hdf5Location truth = file.open_group("truth");
  prediction.truth = read_array(truth, "u", {times, n}, "t, x").values;
  prediction.relative_l2 = number_or_nan(truth, "relative_l2");
  prediction.rmse = number_or_nan(truth, "rmse");
  prediction.coverage95 = number_or_nan(truth, "coverage95");
}

/// "u = 0; u_x = 1" -> {"u = 0", "u_x = 1"}; "none" -> {}.
std::vector<std::string> split_conditions(const std::string& text) {
  std::vector<std::string> conditions;
  if (text == "none" || text.empty()) return conditions;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find("; ", start)) != std::string::npos; start = end + 2)
    conditions.push_back(text.substr(start, end - start));
  conditions.push_back(text.substr(start));
  return conditions;
}

EndConditions read_end(const io::Hdf5Location& boundary, const std::string& end,
                       std::size_t times) {
  EndConditions conditions;
  conditions.conditions = split_conditions(string_or_empty(boundary, end + "_conditions"));
  if (!conditions.conditions.empty())
    conditions.values =
        read_array(boundary, end, {conditions.conditions.size(), times}, "condition, t").values;
  return conditions;
}

void read_measurements(const io::Hdf5Location& file, PredictionFile& prediction) {
  prediction.measured_relative_l2 = prediction.measured_rmse = prediction.measured_coverage95 =
      std::nan("");
  if (!file.has("measurements")) return;
  const io::Hdf5Location measurements = file.open_group("measurements");
  prediction.measured_relative_l2 = number_or_nan(measurements, "relative_l2");
  prediction.measured_rmse = number_or_nan(measurements, "rmse");
  prediction.measured_coverage95 = number_or_nan(measurements, "measurement_coverage95");
  prediction.held_back = number_or_nan(measurements, "held_back") == 1.0;
}

void read_boundary(const io::Hdf5Location& file, std::size_t times, PredictionFile& prediction) {
  if (!file.has("boundary")) return;
  const io::Hdf5Location boundary = file.open_group("boundary");
  prediction.bounded = true;
  prediction.left = read_end(boundary, "left", times);
  prediction.right = read_end(boundary, "right", times);
}

}  // namespace

PredictionFile read_prediction_file(const std::string& path) {
  const io::Hdf5Location file = open_input(path, "bhpm-ensemble");
  PredictionFile prediction;
  prediction.path = path;
  prediction.stem = std::filesystem::path(path).stem().string();
  prediction.x = read_array(file, "x", {0}, "x").values;
  prediction.t = read_array(file, "t", {0}, "t").values;
  const std::size_t n = prediction.x.size(), times = prediction.t.size();
  const auto field = [&](const std::string& name) {
    return read_array(file, name, {times, n}, "t, x").values;
  };
  prediction.mean = field("statistics/mean");
  prediction.std = field("statistics/std");
  // The prediction band; files made before it existed have the empirical quantiles only.
  const bool band = file.has("statistics/band_lower");
  prediction.lower = field(band ? "statistics/band_lower" : "statistics/p2_5");
  prediction.upper = field(band ? "statistics/band_upper" : "statistics/p97_5");
  prediction.operator_std = field("operator_std");
  prediction.samples = number_or_nan(file, "samples");
  prediction.diverged = number_or_nan(file, "diverged");
  prediction.rejected = file.has_attribute("rejected") ? number_or_nan(file, "rejected") : 0.0;
  prediction.repaired = file.has_attribute("repaired") ? number_or_nan(file, "repaired") : 0.0;
  prediction.outside_coverage = number_or_nan(file, "outside_coverage");
  prediction.relative_l2 = prediction.rmse = prediction.coverage95 = std::nan("");
  read_truth(file, times, n, prediction);
  read_boundary(file, times, prediction);
  read_measurements(file, prediction);
  prediction.initial_condition = string_or_empty(file, "initial_condition");
  prediction.sampler = string_or_empty(file, "sampler");
  prediction.solver = string_or_empty(file, "solver");
  prediction.config = string_or_empty(file, "config");
  return prediction;
}

PredictionSummary summarize_prediction(const PredictionFile& prediction) {
  PredictionSummary summary;
  summary.file = std::filesystem::path(prediction.path).filename().string();
  summary.initial_condition = prediction.initial_condition;
  summary.sampler = prediction.sampler;
  summary.solver = prediction.solver;
  summary.samples = prediction.samples;
  summary.diverged = prediction.diverged;
  summary.rejected = prediction.rejected;
  summary.repaired = prediction.repaired;
  summary.outside_coverage = prediction.outside_coverage;
  summary.relative_l2 = prediction.relative_l2;
  summary.rmse = prediction.rmse;
  summary.coverage95 = prediction.coverage95;
  summary.scored_on = prediction.truth.empty() ? "" : "truth";
  if (prediction.truth.empty() && std::isfinite(prediction.measured_relative_l2)) {
    summary.relative_l2 = prediction.measured_relative_l2;
    summary.rmse = prediction.measured_rmse;
    summary.coverage95 = prediction.measured_coverage95;
    summary.scored_on = prediction.held_back ? "held-back measurements" : "measurements";
  }
  summary.rms_std = root_mean_square(prediction.std);
  summary.rmse_over_rms_std = prediction.rmse / summary.rms_std;
  return summary;
}

}  // namespace bhpm::report
