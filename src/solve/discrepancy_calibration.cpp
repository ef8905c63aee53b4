#include "solve/discrepancy_calibration.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "io/atomic_file.h"

namespace bhpm::solve {

namespace {

constexpr const char* kFormat = "bhpm-discrepancy";
constexpr std::int64_t kFormatVersion = 2;

/// Sound members' values at the experiment's measured points with t > 0: [S', P'].
at::Tensor values_at_measurements(const at::Tensor& sound,
                                  const CalibrationExperiment& experiment) {
  const std::int64_t n = sound.size(2);
  const at::Tensor later = experiment.index >= n;  // t_index > 0
  return sound.reshape({sound.size(0), -1}).index_select(1, experiment.index.index({later}));
}

ExperimentSpread spread_of(const at::Tensor& without, const at::Tensor& with,
                           const at::Tensor& measured) {
  ExperimentSpread spread;
  spread.points = measured.size(0);
  spread.squared_error = (without.mean(0) - measured).square().mean().item<double>();
  spread.variance_without = without.var(0, /*unbiased=*/true).mean().item<double>();
  spread.variance_with = with.var(0, /*unbiased=*/true).mean().item<double>();
  return spread;
}

void require_indices(const CalibrationExperiment& experiment, std::int64_t e) {
  const std::int64_t grid =
      pde::output_times(experiment.problem.solve).size(0) * experiment.problem.grid.points();
  const at::Tensor& index = experiment.index;
  if (!index.defined() || index.dim() != 1 || index.scalar_type() != at::kLong ||
      !experiment.measured.defined() || experiment.measured.sizes() != index.sizes() ||
      index.numel() == 0 || index.min().item<std::int64_t>() < 0 ||
      index.max().item<std::int64_t>() >= grid)
    throw std::invalid_argument("discrepancy calibration: training experiment " +
                                std::to_string(e) + ": measurement indices must be int64 in [0, " +
                                std::to_string(grid) + "), one per measured value");
}

/// Step 1 for training experiment e: its ensembles without and with the reference
/// tau_e^2 (from `reference`, divided by 4 while fewer than 2 members are sound in both)
/// and their spread at its measured points; sound_samples < 2 when it has to be left out.
ExperimentSpread experiment_spread(const gp::SparseVariationalGpImpl& root,
                                   const CalibrationExperiment& experiment, std::int64_t e,
                                   PredictorOptions options, double reference,
                                   const PredictionProgress& progress) {
  const std::string name = "training experiment " + std::to_string(e);
  if (progress) progress(name + ": without and with tau_0");
  options.discrepancy_variance = 0.0;
  const Prediction plain = predict_ensemble(root, experiment.problem, options);
  const bool plain_sound = (~plain.ensemble.left_out()).sum().item<std::int64_t>() >= 2;
  for (int reduction = 0;; ++reduction, reference /= 4.0) {
    options.discrepancy_variance = reference;
    const Prediction widened = predict_ensemble(root, experiment.problem, options);
    // Both ensembles over the members sound in both, so that they differ by tau alone.
    const at::Tensor sound = ~(plain.ensemble.left_out() | widened.ensemble.left_out());
    const std::int64_t count = sound.sum().item<std::int64_t>();
    if (count >= 2 || reduction == kMaxReferenceReductions || !plain_sound) {
      ExperimentSpread spread;
      if (count >= 2) {
        const at::Tensor later = experiment.index >= experiment.problem.grid.points();
        spread = spread_of(values_at_measurements(plain.ensemble.u.index({sound}), experiment),
                           values_at_measurements(widened.ensemble.u.index({sound}), experiment),
                           experiment.measured.index({later}));
      }
      spread.sound_samples = count;
      spread.reference_variance = reference;
      return spread;
    }
    if (progress)
      progress(name + ": fewer than 2 sound samples with tau_e^2 = " + std::to_string(reference) +
               ", trying a quarter of it");
  }
}

}  // namespace

DiscrepancyCalibration calibrate_discrepancy(const gp::SparseVariationalGpImpl& root,
                                             const std::vector<CalibrationExperiment>& experiments,
                                             const PredictorOptions& options, double noise_variance,
                                             const PredictionProgress& progress) {
  if (experiments.empty())
    throw std::invalid_argument("discrepancy calibration: no training experiment");
  if (options.samples < 2)
    throw std::invalid_argument("discrepancy calibration: samples must be >= 2 (got " +
                                std::to_string(options.samples) + ")");
  DiscrepancyCalibration calibration;
  calibration.reference_variance = root.likelihood()->variance().item<double>();
  calibration.noise_variance = noise_variance;
  calibration.samples = options.samples;
  calibration.conserve_mean = options.conserve_mean;
  // Point-weighted sums of step 2; `sampling` is V0 / S with each experiment's own sound S,
  // `growth` (V1 - V0) / tau_e^2.
  double error = 0, without = 0, growth = 0, sampling = 0, points = 0;
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    const auto index = static_cast<std::int64_t>(e);
    require_indices(experiments[e], index);
    const ExperimentSpread spread = experiment_spread(root, experiments[e], index, options,
                                                      calibration.reference_variance, progress);
    calibration.experiments.push_back(spread);
    if (spread.sound_samples < 2) continue;  // no spread to compare: left out, and said so
    const auto weight = static_cast<double>(spread.points);
    error += weight * spread.squared_error;
    without += weight * spread.variance_without;
    growth += weight * (spread.variance_with - spread.variance_without) / spread.reference_variance;
    sampling += weight * spread.variance_without / static_cast<double>(spread.sound_samples);
    points += weight;
  }
  if (points == 0)
    throw std::runtime_error(
        "discrepancy calibration: no training experiment has 2 samples that are sound (neither "
        "diverged nor rejected as ill-posed) with and without the reference discrepancy");
  error /= points, without /= points, growth /= points, sampling /= points;
  const double unexplained = error - sampling - noise_variance - without;
  calibration.variance = (unexplained > 0.0 && growth > 0.0) ? unexplained / growth : 0.0;
  return calibration;
}

void write_discrepancy_file(const std::string& path, const DiscrepancyCalibration& calibration,
                            const std::string& config) {
  nlohmann::ordered_json document;
  document["format"] = kFormat;
  document["format_version"] = kFormatVersion;
  document["variance"] = calibration.variance;
  document["reference_variance"] = calibration.reference_variance;
  document["noise_variance"] = calibration.noise_variance;
  document["samples"] = calibration.samples;
  document["conserve_mean"] = calibration.conserve_mean;
  if (std::isfinite(calibration.mean_drift)) document["mean_drift"] = calibration.mean_drift;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t e = 0; e < calibration.experiments.size(); ++e) {
    const ExperimentSpread& spread = calibration.experiments[e];
    rows.push_back({{"experiment", e},
                    {"sound_samples", spread.sound_samples},
                    {"points", spread.points},
                    {"squared_error", spread.squared_error},
                    {"variance_without", spread.variance_without},
                    {"variance_with_reference", spread.variance_with},
                    {"reference_variance", spread.reference_variance}});
  }
  document["training_experiments"] = rows;
  document["config"] = config;
  io::write_text_atomically(path, document.dump(2) + "\n");
}

DiscrepancyFile read_discrepancy_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot be read");
  const nlohmann::json document = nlohmann::json::parse(file, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    throw std::runtime_error(path + ": not a JSON object");
  if (document.value("format", std::string()) != kFormat)
    throw std::runtime_error(path + ": format must be \"" + kFormat + "\"");
  if (document.value("format_version", std::int64_t{0}) > kFormatVersion)
    throw std::runtime_error(path + ": format_version is newer than " +
                             std::to_string(kFormatVersion));
  const auto variance = document.find("variance");
  if (variance == document.end() || !variance->is_number() ||
      !std::isfinite(variance->get<double>()) || variance->get<double>() < 0.0)
    throw std::runtime_error(path + ": \"variance\" must be a number >= 0");
  const auto conserve_mean = document.find("conserve_mean");
  if (conserve_mean != document.end() && !conserve_mean->is_boolean())
    throw std::runtime_error(path + ": \"conserve_mean\" must be true or false");
  return {variance->get<double>(), conserve_mean != document.end() && conserve_mean->get<bool>(),
          document.value("config", std::string())};
}

}  // namespace bhpm::solve
