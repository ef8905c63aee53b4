#include "cli/calibrate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/calibration_from_measurements.h"
#include "cli/calibration_printer.h"
#include "cli/left_out_roots.h"
#include "cli/process_setup.h"
#include "cli/run_folder.h"
#include "cli/setting_flags.h"
#include "config/run_layout.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"
#include "model/mean_drift.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "pde/measured_experiment.h"
#include "solve/discrepancy_calibration.h"
#include "util/number_format.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

std::vector<solve::CalibrationExperiment> training_experiments(const config::RunConfig& config,
                                                               const pde::ExperimentSet& set) {
  std::vector<solve::CalibrationExperiment> experiments;
  for (std::int64_t e = 0; e < set.u.size(0); ++e)
    experiments.push_back(
        {experiment_problem(config, set, e).problem, set.sample_index[e], set.sample_u[e]});
  return experiments;
}

/// The training leaves' drift of the spatial mean over their boxes (model/mean_drift.h),
/// printed; decides conserve_mean under predict.conservation = "auto".
model::MeanDrift measure_mean_drift(const std::string& run_dir, const config::RunConfig& config,
                                    const std::vector<nn::DomainBox>& boxes) {
  const model::LeafModel leaves =
      trained_leaves(run_dir, config, static_cast<std::int64_t>(boxes.size()));
  const model::MeanDrift drift = model::leaf_mean_drift(*leaves, boxes);
  std::printf(
      "spatial mean of u: the training leaves move it by %.3g %% of the variation of u "
      "(tolerance %.3g %%): %s\n",
      100.0 * drift.relative(), 100.0 * model::kConservedMeanTolerance,
      drift.conserved() ? "conserved" : "not conserved");
  return drift;
}

/// Steps 1-6 of solve/discrepancy_calibration.h: the training experiments' solution grids
/// predicted by their left-out posteriors.
solve::DiscrepancyCalibration trajectory_route(const CalibrateCommandOptions& options,
                                               TrainedRun& run, const std::string& data_path) {
  run.config.predict.discrepancy = "none";  // the calibration sets tau itself
  solve::PredictorOptions predictor = predictor_options(run, options.run_dir);
  predictor.samples = run.config.predict.calibration_samples;
  const pde::ExperimentSet set = pde::read_experiment_set(data_path, "train");
  const std::int64_t count = set.u.size(0);
  const model::MeanDrift drift =
      measure_mean_drift(options.run_dir, run.config,
                         std::vector<nn::DomainBox>(static_cast<std::size_t>(count),
                                                    model::domain_box(pde::grid_window(set))));
  if (run.config.predict.conservation == "auto") predictor.conserve_mean = drift.conserved();
  const auto progress = [&options](const std::string& line) {
    if (!options.quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  std::vector<solve::CalibrationExperiment> experiments = training_experiments(run.config, set);
  if (run.config.predict.calibration_leave_one_out)
    attach_left_out_roots(options.run_dir, run, set, data_path + ":/train",
                          run.config.predict.calibration_transfer, experiments);
  else
    std::printf(
        "calibration posterior: the trained one (predict.calibration_leave_one_out = false); "
        "transfer check: not done (it needs the leave-one-out posteriors)\n");
  solve::DiscrepancyCalibration calibration = solve::calibrate_discrepancy(
      *run.root, experiments, predictor, set.noise * set.noise, progress);
  calibration.mean_drift = drift.relative();
  print_calibration(calibration);
  return calibration;
}

/// solve/operator_calibration.h: the training experiments' leaf rows scored by their
/// left-out posteriors, no ensemble solved.
solve::DiscrepancyCalibration operator_route(const CalibrateCommandOptions& options,
                                             const TrainedRun& run, const std::string& data_path) {
  solve::DiscrepancyCalibration calibration = calibrate_from_measurements(
      options.run_dir, run, data_path, run.config.predict.options.discrepancy_order);
  const model::MeanDrift drift = measure_mean_drift(
      options.run_dir, run.config, model::domain_boxes(pde::read_measured_set(data_path, "train")));
  calibration.mean_drift = drift.relative();
  calibration.conserve_mean = drift.conserved();
  print_operator_calibration(calibration);
  return calibration;
}

}  // namespace

void setup_calibrate(CLI::App& app) {
  auto options = std::make_shared<CalibrateCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Fit the operator samples' model discrepancy on the training experiments (their "
      "solution grids, or their measurements alone)");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--data", options->data_path,
                      "Dataset whose training experiments calibrate (default RUN_DIR/data.h5)");
  add_setting_flag(*command, options->overrides, "--samples", "predict.calibration_samples",
                   "Samples per training experiment and setting (>= 2)");
  add_override_option(*command, options->overrides,
                      "Override a setting, e.g. --set predict.sampler=pathwise");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr, only the result");
  command->callback([options] { throw CLI::RuntimeError(run_calibrate(*options)); });
}

int run_calibrate(const CalibrateCommandOptions& options) {
  const util::Stopwatch stopwatch;
  const config::RunLayout layout{options.run_dir};
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm calibrate");
  io::require_output_folder(layout.discrepancy());
  TrainedRun run = load_trained_run(options.run_dir, options.overrides, options.config_path);
  for (at::Tensor& parameter : run.root->parameters()) parameter.requires_grad_(false);
  const std::string data_path = options.data_path.empty() ? layout.data() : options.data_path;
  if (!std::filesystem::exists(data_path))
    throw std::invalid_argument("calibrate: " + data_path +
                                " is missing (the training experiments)");
  const std::string method =
      resolved_calibration_method(run.config.predict.calibration_method, data_path);
  use_threads(0);
  const solve::DiscrepancyCalibration calibration = method == "operator"
                                                        ? operator_route(options, run, data_path)
                                                        : trajectory_route(options, run, data_path);
  solve::write_discrepancy_file(layout.discrepancy(), calibration, run.config.resolved_toml);
  std::printf("wrote %s (%.1f s)\n", layout.discrepancy().c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
