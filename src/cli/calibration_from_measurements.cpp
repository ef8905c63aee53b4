#include "cli/calibration_from_measurements.h"

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

namespace bhpm::cli {

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

solve::DiscrepancyCalibration calibrate_from_measurements(const std::string& run_dir,
                                                          const TrainedRun& run,
                                                          const std::string& data_path,
                                                          std::int64_t order) {
  const std::string refusal = operator_calibration_refusal(data_path);
  if (!refusal.empty()) throw std::invalid_argument("calibrate: " + refusal);
  const std::vector<pde::MeasuredExperiment> measured = pde::read_measured_set(data_path, "train");
  const auto count = static_cast<std::int64_t>(measured.size());
  const model::LeafData data = model::leaf_data_from_measurements(
      measured, count, model::fewest_points(measured, count), data_path + ":/train");
  gp::SparseVariationalGp root = trained_root(run_dir);
  for (at::Tensor& parameter : root->parameters()) parameter.requires_grad_(false);
  const model::RootOptions& options = run.config.root.root;
  model::BhpmModel model(trained_leaves(run_dir, run.config, count), root, options.order,
                         options.input_noise == "laplace");
  gp::PathwiseOptions pathwise = run.config.predict.options.pathwise;
  pathwise.seed = run.config.predict.options.seed;
  const solve::OperatorCalibration fit = solve::calibrate_operator(
      model::left_out_residuals(*model, data, run.config.predict.calibration_samples, pathwise));
  return solve::operator_discrepancy(fit, order, mean_noise_variance(measured));
}

void print_operator_calibration(const solve::DiscrepancyCalibration& calibration) {
  const solve::OperatorCalibration& fit = calibration.operator_fit;
  for (std::size_t e = 0; e < fit.experiments.size(); ++e) {
    const solve::OperatorBins& bins = fit.experiments[e];
    std::printf(
        "training experiment %zu, its leaf rows scored by the root's posterior without it: "
        "RMS error / RMS in-sample error / RMS spread of the cell means, by fifth of its "
        "window:",
        e);
    for (std::size_t k = 0; k < bins.cells.size(); ++k)
      std::printf(" %.2g/%.2g/%.2g", std::sqrt(bins.left_out_error[k]),
                  std::sqrt(bins.in_sample_error[k]), std::sqrt(bins.variance[k]));
    std::printf("; kappa = %.4g alone\n", bins.factor);
  }
  std::printf(
      "model discrepancy (from the measurements alone): the posterior's spread scaled by kappa = "
      "%.4g in variance (sqrt: %.3g; above 1 only q(u)'s share of it), so that the bands hold "
      "the left-out errors (less the in-sample error) of %lld time bins at 50, 90 and 95 %% on "
      "average, %lld samples per experiment\n",
      calibration.inflation, std::sqrt(calibration.inflation), static_cast<long long>(fit.bins),
      static_cast<long long>(fit.samples));
}

}  // namespace bhpm::cli
