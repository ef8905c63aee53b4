#include "pipeline/window_calibration.h"

#include <ATen/ATen.h>

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/leaf_data.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "pipeline/calibration_from_measurements.h"
#include "pipeline/left_out_roots.h"
#include "pipeline/window_problem.h"
#include "solve/scattered_statistics.h"
#include "solve/window_calibration.h"

namespace bhpm::pipeline {

namespace {

/// The predictor of the calibration ensembles: the run's [predict] with
/// predict.calibration_samples pathwise samples, no spread inflation, no discrepancy term
/// and no shift of the equation's terms.
solve::PredictorOptions calibration_predictor(const TrainedRun& run) {
  solve::PredictorOptions options = run.config.predict.options;
  options.samples = run.config.predict.calibration_samples;
  options.sampler = "pathwise";
  options.spread_inflation = 1.0;
  options.discrepancy_variance = 0.0;
  options.shift = nullptr;
  solve::validate(options);
  return options;
}

/// s_p^2 of each experiment's measurements [P] (pipeline::measurement_noise_variance).
std::vector<at::Tensor> noise_variances(const std::string& data_path,
                                        const std::vector<pde::MeasuredExperiment>& measured,
                                        const model::LeafModelImpl& leaves) {
  const at::Tensor leaf_sigma = leaves.noise_scale().detach().to(at::kDouble).cpu();
  std::vector<at::Tensor> variances;
  for (std::size_t e = 0; e < measured.size(); ++e)
    variances.push_back(
        measurement_noise_variance(data_path, measured[e].sigma, measured[e].u,
                                   leaf_sigma[static_cast<std::int64_t>(e)].item<double>()));
  return variances;
}

/// The sound members of `ensemble` at the window's measurements: r_p, V_p and the count;
/// none when fewer than 2 members stayed sound (a spread needs 2).
std::optional<solve::WindowResiduals> residuals_at_measurements(
    const ExperimentWindow& window, const solve::EnsembleSolution& ensemble,
    const at::Tensor& noise_variance, std::int64_t experiment) {
  const at::Tensor sound = ensemble.u.index({ensemble.left_out().logical_not()});
  if (sound.size(0) < 2) return std::nullopt;
  const at::Tensor values = solve::values_at_points(sound, window.problem->grid, ensemble.t,
                                                    window.x, window.t - window.t_start);
  const at::Tensor mean = values.mean(0);
  const auto as_vector = [](const at::Tensor& v) {
    const at::Tensor c = v.to(at::kDouble).contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
  };
  return solve::WindowResiduals{experiment, as_vector(window.u.to(at::kDouble) - mean),
                                as_vector(values.var(0, true)), as_vector(noise_variance),
                                sound.size(0)};
}

/// "training experiment e: member s left out (why)" for each member that diverged or was
/// rejected.
void report_left_out(const solve::EnsembleSolution& ensemble, std::int64_t experiment,
                     const std::function<void(const std::string&)>& progress) {
  if (!progress) return;
  const at::Tensor left_out = ensemble.left_out();
  for (std::int64_t s = 0; s < left_out.size(0); ++s)
    if (left_out[s].item<bool>())
      progress("calibration window: training experiment " + std::to_string(experiment) +
               ": member " + std::to_string(s) + " left out (" +
               ensemble.failures[static_cast<std::size_t>(s)] + ")");
}

}  // namespace

RunCalibration calibrate_by_windows(const std::string& run_dir, const TrainedRun& run,
                                    const std::string& data_path,
                                    const std::function<void(const std::string&)>& progress) {
  const std::string refusal = operator_calibration_refusal(data_path);
  if (!refusal.empty()) throw std::invalid_argument("calibrate: " + refusal);
  const std::vector<pde::MeasuredExperiment> measured = pde::read_measured_set(data_path, "train");
  const auto count = static_cast<std::int64_t>(measured.size());
  const model::LeafModel leaves = trained_leaves(run_dir, run.config, count);
  const model::LeafData data = model::leaf_data_from_measurements(
      measured, count, model::fewest_points(measured, count), data_path + ":/train");
  const std::vector<at::Tensor> noise = noise_variances(data_path, measured, *leaves);
  const solve::PredictorOptions predictor = calibration_predictor(run);
  std::vector<solve::WindowResiduals> residuals;
  std::vector<std::int64_t> left_out;
  for (std::int64_t e = 0; e < count; ++e) {
    const gp::SparseVariationalGp root = posterior_without(run, leaves, data, {e});
    const ExperimentWindow window = training_window(*root, run.config, *leaves, measured, e);
    if (progress) progress("calibration window: " + window.description);
    solve::PredictionProblem problem;
    problem.window = window.problem;
    const solve::Prediction prediction =
        solve::predict_ensemble(*root, problem, predictor, progress);
    report_left_out(prediction.ensemble, e, progress);
    const std::optional<solve::WindowResiduals> scored = residuals_at_measurements(
        window, prediction.ensemble, noise[static_cast<std::size_t>(e)], e);
    if (scored)
      residuals.push_back(*scored);
    else
      left_out.push_back(e);
  }
  if (residuals.empty())
    throw std::runtime_error(
        "calibrate: on every training experiment's window fewer than 2 of the " +
        std::to_string(predictor.samples) +
        " samples stayed sound (they diverged or were ill-posed): no spread to fit kappa to; "
        "try more samples (--samples) or predict.calibration_method = \"operator\"");
  solve::WindowCalibration fit = solve::fit_window_inflation(residuals);
  fit.left_out = left_out;
  solve::DiscrepancyCalibration calibration = solve::window_discrepancy(
      fit, run.config.predict.options.discrepancy_order, predictor.samples);
  return with_conservation(std::move(calibration),
                           measured_mean_conservation(*leaves, measured, *run.root, run.config));
}

}  // namespace bhpm::pipeline
