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

/// "17 bins; 3 left out, their paths more than 1.0 % outside the data's coverage".
std::string fitted_bins_text(std::int64_t bins, std::int64_t off_data) {
  std::string text = std::to_string(bins) + " bins";
  if (off_data > 0)
    text += "; " + std::to_string(off_data) + " left out, their paths more than " +
            util::format_percent(solve::kCoveredPathTolerance) + " outside the data's coverage";
  return text;
}

/// Which of step 6's fits sit at their bounds, e.g. "kappa = 1 at its bound".
std::string fits_at_bounds_text(const solve::TransferCheck& check) {
  const bool kappa = check.inflation.factor <= 1, tau = check.discrepancy.variance <= 0;
  if (kappa && tau) return "kappa = 1 and tau^2 = 0 at their bounds";
  return kappa ? "kappa = 1 at its bound" : "tau^2 = 0 at its bound";
}

/// Step 6's fits on the leave-two-out ensembles, their misfits and losses carried over to
/// the leave-one-out ones, and which form they chose.
void print_transfer(const solve::TransferCheck& check) {
  if (check.experiments.empty()) return;
  std::printf(
      "transfer check: fitted on posteriors without 2 training experiments, kappa = %.4g and "
      "tau^2 = %.4g at T = %.3g; carried over to the leave-one-out ensembles, their misfits "
      "%.3g and %.3g, %.3g and %.3g more than the values fitted there",
      check.inflation.factor, check.discrepancy.variance, check.discrepancy.timescale,
      check.inflation_misfit, check.discrepancy_misfit, check.inflation_loss,
      check.discrepancy_loss);
  if (!check.losses_finite()) {
    std::printf(" (not both finite: the misfit above decides)\n");
    return;
  }
  if (!check.fits_inside_bounds()) {
    std::printf(
        " (%s one level lower, set by the bound and not by the data: the misfit above "
        "decides)\n",
        fits_at_bounds_text(check).c_str());
    return;
  }
  std::printf(": %s carries over better\n",
              check.inflation_loss < check.discrepancy_loss ? "kappa" : "tau^2");
}

void print_calibration(const solve::DiscrepancyCalibration& calibration) {
  for (std::size_t e = 0; e < calibration.experiments.size(); ++e) {
    for (const solve::CandidateSpread& spread : calibration.experiments[e]) {
      if (spread.sound_samples < 2) {
        std::printf(
            "training experiment %zu, T = %.3g: left out (%lld sound samples in both "
            "settings)\n",
            e, spread.timescale, static_cast<long long>(spread.sound_samples));
        continue;
      }
      std::printf(
          "training experiment %zu, T = %.3g, tau_e^2 = %.3g: RMSE of the mean / RMS "
          "spread without / with it, by fifth of the horizon:",
          e, spread.timescale, spread.reference_variance);
      for (std::size_t k = 0; k < spread.points.size(); ++k)
        std::printf(" %.2g/%.2g/%.2g", std::sqrt(spread.squared_error[k]),
                    std::sqrt(spread.variance_without[k]), std::sqrt(spread.variance_with[k]));
      std::printf("; outside coverage:");
      for (const double fraction : spread.outside_coverage) std::printf(" %.3g", fraction);
      std::printf("\n");
    }
  }
  for (const solve::CandidateFit& fit : calibration.candidates)
    std::printf("T = %.3g: tau^2 = %.4g, misfit of the spread over time %.3g (%s)\n", fit.timescale,
                fit.variance, fit.misfit, fitted_bins_text(fit.bins, fit.off_data_bins).c_str());
  const solve::InflationFit& inflation = calibration.inflation_fit;
  std::printf("spread inflation: kappa = %.4g, misfit of the spread over time %.3g (%s)\n",
              inflation.factor, inflation.misfit,
              fitted_bins_text(inflation.bins, inflation.off_data_bins).c_str());
  print_transfer(calibration.transfer);
  if (calibration.inflation != 1.0) {
    std::printf(
        "model discrepancy: the posterior's spread about its mean scaled by kappa = %.4g in "
        "variance (sqrt: %.3g)\n",
        calibration.inflation, std::sqrt(calibration.inflation));
    return;
  }
  std::printf(
      "model discrepancy: tau^2 = %.4g (tau = %.3g; sigma_f^2 = %.4g), timescale T = %.3g "
      "(0: constant in time), on derivatives of order <= %lld\n",
      calibration.variance, std::sqrt(calibration.variance), calibration.reference_variance,
      calibration.timescale, static_cast<long long>(calibration.order));
}

/// The trained root's posterior refitted without the rows of the training experiments in
/// `left_out` (at the trained leaves and hyperparameters:
/// model::BhpmModelImpl::set_optimal_root_posterior).
gp::SparseVariationalGp posterior_without(const std::string& run_dir, const TrainedRun& run,
                                          const model::LeafModel& leaves,
                                          const model::LeafData& data,
                                          const std::vector<std::int64_t>& left_out) {
  gp::SparseVariationalGp posterior = trained_root(run_dir);
  for (at::Tensor& parameter : posterior->parameters()) parameter.requires_grad_(false);
  const model::RootOptions& root = run.config.root.root;
  model::BhpmModel model(leaves, posterior, root.order, root.input_noise == "laplace");
  model->set_optimal_root_posterior(data, left_out);
  return posterior;
}

/// Gives every training experiment e the root posterior fitted without its rows, so that
/// the calibration sees the errors of a new initial condition rather than those of a
/// trajectory the root was fitted along (needs 2 experiments), and, with `transfer` and 3
/// experiments or more, the one without its rows and those of experiment (e + 1) mod N
/// for the transfer check (solve/discrepancy_calibration.h, step 6). Says what it did.
void attach_left_out_roots(const std::string& run_dir, const TrainedRun& run,
                           const pde::ExperimentSet& set, const std::string& source, bool transfer,
                           std::vector<solve::CalibrationExperiment>& experiments) {
  const auto count = static_cast<std::int64_t>(experiments.size());
  if (count < 2) {
    std::printf(
        "calibration posterior: the trained one (leave-one-out needs 2 training "
        "experiments, the run has %lld)\n",
        static_cast<long long>(count));
    return;
  }
  const model::LeafModel leaves = trained_leaves(run_dir, run.config, count);
  const model::LeafData data = model::leaf_data_from_measurements(
      pde::measured_experiments(set), count, set.sample_u.size(1), source);
  for (std::int64_t e = 0; e < count; ++e) {
    solve::CalibrationExperiment& experiment = experiments[static_cast<std::size_t>(e)];
    experiment.leave_one_out_root = posterior_without(run_dir, run, leaves, data, {e});
    if (transfer && count >= 3)
      experiment.leave_two_out_root =
          posterior_without(run_dir, run, leaves, data, {e, (e + 1) % count});
  }
  std::printf(
      "calibration posterior: each training experiment's without its own rows "
      "(leave one out)\n");
  if (!transfer)
    std::printf("transfer check: off (predict.calibration_transfer = false)\n");
  else if (count < 3)
    std::printf(
        "transfer check: not done (it leaves out 2 of the training experiments and needs 3, "
        "the run has %lld)\n",
        static_cast<long long>(count));
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

/// Every training experiment's own window as a leaf box.
std::vector<nn::DomainBox> measured_boxes(const std::string& data_path) {
  std::vector<nn::DomainBox> boxes;
  for (const pde::MeasuredExperiment& experiment : pde::read_measured_set(data_path, "train"))
    boxes.push_back(model::domain_box(experiment.window));
  return boxes;
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
  const model::MeanDrift drift =
      measure_mean_drift(options.run_dir, run.config, measured_boxes(data_path));
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
  command->add_option("--set", options->overrides,
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
