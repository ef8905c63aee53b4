#include "pipeline/run_calibration.h"

#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/leaf_data.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "pipeline/calibration_from_measurements.h"
#include "pipeline/left_out_roots.h"

namespace bhpm::pipeline {

namespace {

/// Each training experiment of `set` as an initial-value problem with its measurements.
std::vector<solve::CalibrationExperiment> training_experiments(const config::RunConfig& config,
                                                               const pde::ExperimentSet& set) {
  std::vector<solve::CalibrationExperiment> experiments;
  for (std::int64_t e = 0; e < set.u.size(0); ++e)
    experiments.push_back(
        {experiment_problem(config, set, e).problem, set.sample_index[e], set.sample_u[e]});
  return experiments;
}

}  // namespace

RunCalibration with_conservation(solve::DiscrepancyCalibration calibration,
                                 const MeanConservation& conservation) {
  if (conservation.test == ConservationTest::kLeafMeanDrift)
    calibration.mean_drift = conservation.value;
  else
    calibration.total_derivative_residual = conservation.value;
  calibration.conserve_mean = conservation.conserved;
  return {std::move(calibration), conservation};
}

RunCalibration calibrate_by_operator(const std::string& run_dir, const TrainedRun& run,
                                     const std::string& data_path) {
  const std::string refusal = operator_calibration_refusal(data_path);
  if (!refusal.empty()) throw std::invalid_argument("calibrate: " + refusal);
  const std::vector<pde::MeasuredExperiment> measured = pde::read_measured_set(data_path, "train");
  const model::LeafModel leaves =
      trained_leaves(run_dir, run.config, static_cast<std::int64_t>(measured.size()));
  return with_conservation(
      calibrate_from_measurements(run, leaves, measured, data_path + ":/train",
                                  run.config.predict.options.discrepancy_order),
      measured_mean_conservation(*leaves, measured, *run.root, run.config));
}

RunCalibration calibrate_by_trajectories(const std::string& run_dir, TrainedRun& run,
                                         const std::string& data_path,
                                         const std::function<void(const std::string&)>& progress) {
  run.config.predict.discrepancy = "none";  // the calibration sets tau itself
  solve::PredictorOptions predictor = predictor_options(run, run_dir);
  predictor.samples = run.config.predict.calibration_samples;
  const pde::ExperimentSet set = pde::read_experiment_set(data_path, "train");
  if (!set.conditions.empty())
    throw std::invalid_argument(
        "predict.calibration_method = \"trajectories\": " + data_path +
        " holds experiments on a bounded domain, and that method solves them on periodic grids; "
        "use \"operator\" or \"windows\"");
  const auto count = static_cast<std::size_t>(set.u.size(0));
  const model::LeafModel leaves =
      trained_leaves(run_dir, run.config, static_cast<std::int64_t>(count));
  const MeanConservation conservation = grid_mean_conservation(*leaves, set);
  if (run.config.predict.conservation == "auto") predictor.conserve_mean = conservation.conserved;
  std::vector<solve::CalibrationExperiment> experiments = training_experiments(run.config, set);
  if (run.config.predict.calibration_leave_one_out)
    attach_left_out_roots(run, leaves, set, data_path + ":/train",
                          run.config.predict.calibration_transfer, experiments);
  else
    std::printf(
        "calibration posterior: the trained one (predict.calibration_leave_one_out = false); "
        "transfer check: not done (it needs the leave-one-out posteriors)\n");
  // The ensembles conserved the mean as predictor.conserve_mean says, whatever the test.
  RunCalibration result{solve::calibrate_discrepancy(*run.root, experiments, predictor,
                                                     set.noise * set.noise, progress),
                        conservation};
  result.calibration.mean_drift = conservation.value;
  return result;
}

}  // namespace bhpm::pipeline
