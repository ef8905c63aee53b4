#pragma once
// The report's calibration of an ensemble written as a bhpm-ensemble file, for the report's
// tests.

#include <ATen/ATen.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "report/calibration_figure.h"
#include "solve/ensemble_file.h"
#include "solve/ensemble_statistics.h"

namespace bhpm::testing_support {

/// Writes members u [S, T, n] (member `rejected` flagged rejected, -1: none) and truth
/// [T, n] to the temporary file `name`, reads its calibration back and removes the file.
inline report::PredictionCalibration ensemble_calibration(const at::Tensor& u,
                                                          const at::Tensor& truth,
                                                          std::int64_t rejected,
                                                          const std::string& name) {
  const std::int64_t samples = u.size(0), times = u.size(1), n = u.size(2);
  solve::Prediction prediction;
  solve::EnsembleSolution& ensemble = prediction.ensemble;
  ensemble.x = at::arange(n, at::kDouble);
  ensemble.t = at::arange(times, at::kDouble);
  ensemble.u = u.clone();
  ensemble.diverged = at::zeros({samples}, at::kBool);
  ensemble.rejected = at::zeros({samples}, at::kBool);
  if (rejected >= 0) ensemble.rejected[rejected] = true;
  ensemble.failures.assign(static_cast<std::size_t>(samples), "");
  const solve::EnsembleStatistics statistics = solve::ensemble_statistics(ensemble);
  solve::EnsembleRecord record;
  record.prediction = &prediction;
  record.statistics = &statistics;
  record.u0 = truth[0];
  record.operator_std = at::zeros({times, n}, at::kDouble);
  record.truth = truth;
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  solve::write_ensemble_file(path.string(), record);
  report::PredictionCalibration calibration = report::prediction_calibration(path.string());
  std::filesystem::remove(path);
  return calibration;
}

}  // namespace bhpm::testing_support
