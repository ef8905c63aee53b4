#include "pipeline/calibration_from_measurements.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "model/bhpm_model.h"
#include "model/leaf_data.h"
#include "model/left_out_residuals.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "solve/operator_calibration.h"

namespace bhpm::pipeline {

std::string resolved_calibration_method(const std::string& choice, const std::string& data_path) {
  if (choice == "auto") return "operator";
  const bool grids = pde::read_dataset_metadata(data_path).format_version == 1;
  if (choice == "trajectories" && !grids)
    throw std::invalid_argument(
        "calibrate: predict.calibration_method = \"trajectories\" predicts the training "
        "experiments' solution grids, and " +
        data_path + " holds measurements only (use \"operator\")");
  return choice;
}

std::string operator_calibration_refusal(const std::string& data_path) {
  const std::int64_t experiments = pde::dataset_experiments(data_path, "train");
  if (experiments >= 2) return "";
  return data_path + ":/train holds " + std::to_string(experiments) +
         " training experiment(s), and the calibration scores each one by the root's posterior "
         "fitted without it, which needs 2: no calibration is fitted, and predictions carry the "
         "root's posterior alone (their bands uncalibrated)";
}

namespace {

/// The mean of the measurements' noise variances where the file gives them (0 where none).
double mean_noise_variance(const std::vector<pde::MeasuredExperiment>& measured) {
  double sum = 0;
  std::int64_t points = 0;
  for (const pde::MeasuredExperiment& experiment : measured) {
    if (!experiment.sigma.defined()) continue;
    sum += experiment.sigma.square().sum().item<double>();
    points += experiment.sigma.size(0);
  }
  return points > 0 ? sum / static_cast<double>(points) : 0.0;
}

}  // namespace

solve::DiscrepancyCalibration calibrate_from_measurements(
    const TrainedRun& run, const model::LeafModel& leaves,
    const std::vector<pde::MeasuredExperiment>& measured, const std::string& source,
    std::int64_t order) {
  const auto count = static_cast<std::int64_t>(measured.size());
  const model::LeafData data = model::leaf_data_from_measurements(
      measured, count, model::fewest_points(measured, count), source);
  gp::SparseVariationalGp root = gp::copy_with_shared_prior(*run.root);
  const model::RootOptions& options = run.config.root.root;
  model::BhpmModel model(leaves, root, options.order, options.input_noise == "laplace");
  gp::PathwiseOptions pathwise = run.config.predict.options.pathwise;
  pathwise.seed = run.config.predict.options.seed;
  const solve::OperatorCalibration fit = solve::calibrate_operator(
      model::left_out_residuals(*model, data, run.config.predict.calibration_samples, pathwise));
  return solve::operator_discrepancy(fit, order, mean_noise_variance(measured));
}

}  // namespace bhpm::pipeline
