#include "cli/predict_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cli/mpi_job.h"
#include "cli/prediction_output.h"
#include "cli/prediction_problem.h"
#include "cli/prediction_shares.h"
#include "cli/prediction_summary.h"
#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "cli/system_learning.h"
#include "cli/system_prediction_command.h"
#include "cli/training_printer.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pipeline/distilled_operator.h"
#include "pipeline/run_folder.h"
#include "pipeline/window_problem.h"
#include "solve/ensemble_file.h"
#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"
#include "util/error_message.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

void setup_predict(CLI::App& app) {
  auto options = std::make_shared<PredictCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "predict", "Solve a new initial-value problem under samples of the learned operator");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  auto* ic = command->add_option(
      "--ic", options->initial_condition,
      "Initial condition u0(x) as an expression in x (constants pi, L, x_min, x_max)");
  auto* from =
      command
          ->add_option("--ic-from", options->initial_from,
                       "u0 from a stored experiment: FILE:EXPERIMENT or FILE:SET/EXPERIMENT")
          ->check(CLI::Validator(reference_error, "FILE:EXPERIMENT"));
  auto* file = command
                   ->add_option("--ic-file", options->initial_file,
                                "u0 sampled at points: a CSV with columns x and u over one "
                                "period of the domain (or the whole of a bounded one), "
                                "interpolated to the grid")
                   ->check(CLI::ExistingFile);
  auto* window =
      command
          ->add_option("--window-from", options->window_from,
                       "Predict an experiment on its own window, u0 and the boundary data from "
                       "its leaf: E or train/E (a training experiment), test/E (a held-out one, "
                       "its leaf fitted now; docs/boundary-conditions.md)")
          ->check(CLI::Validator(window_reference_error, "[SET/]E"));
  ic->excludes(from)->excludes(file)->excludes(window);
  from->excludes(file)->excludes(window);
  file->excludes(window);
  command->add_option("-o,--output", options->output_path,
                      "Ensemble file (HDF5; default RUN_DIR/prediction.h5)");
  auto add_flag = [&](const std::string& flag, const std::string& key, const std::string& help) {
    add_setting_flag(*command, options->flag_overrides, flag, "predict." + key, help);
  };
  add_flag("--samples", "samples", "Number of operator samples S (>= 1)");
  add_setting_flag(*command, options->flag_overrides, "--device", "compute.device",
                   "Where the samples are drawn and solved: cpu, cuda or cuda:N");
  add_flag("--operator", "operator",
           "gp (samples of the root's posterior), distilled or weak-form (RUN_DIR/distill.json's "
           "pointwise or weak-form equation)");
  add_flag("--sampler", "sampler", "conditioned (Algorithm 1) or pathwise");
  add_flag("--solver", "solver", "spectral or pinn");
  add_flag("--tolerance", "relative_tolerance",
           "Algorithm 1's L_c tolerance relative to the kernel variance (> 0)");
  add_flag("--time-budget", "time_budget",
           "Wall seconds for Algorithm 1's rounds (0: no limit); then samples stop unconverged");
  add_override_option(*command, options->overrides,
                      "Override a setting, e.g. --set predict.features=2048");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr, only the summary");
  command->callback([options, ic, from, file, window] {
    if (ic->count() == 0 && from->count() == 0 && file->count() == 0 && window->count() == 0)
      throw CLI::RequiredError(
          "predict: give the initial condition with --ic EXPR, --ic-file U0.csv, --ic-from "
          "FILE:EXPERIMENT or --window-from E",
          CLI::ExitCodes::RequiredError);
    throw CLI::RuntimeError(run_predict(*options));
  });
}

namespace {

int predict(const PredictCommandOptions& options, const MpiJob& job) {
  const util::Stopwatch stopwatch;
  const std::string output = prediction_output(options);
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm predict");
  io::require_output_folder(output);
  const std::vector<std::string> overrides = prediction_overrides(options);
  const pipeline::TrainedRun run =
      pipeline::load_trained_run(options.run_dir, overrides, options.config_path);
  const config::RunConfig& config = run.config;
  const gp::SparseVariationalGp& root = run.root;
  for (at::Tensor& parameter : root->parameters()) parameter.requires_grad_(false);
  const bool quiet_leaves = options.quiet || job.rank() != 0;
  Problem problem =
      options.window_from.empty()
          ? make_problem(options, run)
          : window_problem(options, run,
                           quiet_leaves ? model::TrainingCallback{} : training_printer(false));
  place_on_device(config, root, problem.problem);
  solve::PredictorOptions predictor =
      pipeline::predictor_options(run, options.run_dir, job.rank() == 0);
  share_members(job, config, predictor);
  if (predictor.shift && job.rank() == 0)
    std::printf("equation terms: %s\n", predictor.shift->description.c_str());
  const double prior_variance = root->kernel()->prior_variance().item<double>();
  use_threads(0);

  const bool quiet = options.quiet || job.rank() != 0;  // rank 0 speaks for the job
  const auto progress = [quiet](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  const bool distilled = config.predict.operator_source != "gp";  // an equation's samples
  const solve::Prediction prediction = gather_prediction(
      job, distilled ? solve::predict_with_samples(
                           pipeline::distilled_samples(options.run_dir, config, predictor.samples),
                           problem.problem, predictor, progress)
                     : solve::predict_ensemble(*root, problem.problem, predictor, progress));
  if (job.rank() != 0) return 0;  // rank 0 writes the whole ensemble
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  if (ensemble.left_out().all().item<bool>())
    throw std::runtime_error(
        "predict: every one of the " + std::to_string(ensemble.u.size(0)) +
        " samples diverged or was rejected (sample 0: " + ensemble.failures[0] + ")");
  const solve::EnsembleStatistics statistics = solve::ensemble_statistics(ensemble);
  std::optional<solve::TruthComparison> comparison;
  if (problem.truth.defined()) comparison = solve::compare_with_truth(statistics, problem.truth);
  std::optional<solve::MeasurementComparison> measured;
  if (problem.window)
    measured = pipeline::measurement_comparison(*problem.window, ensemble, statistics);
  const std::string measured_text =
      measured ? pipeline::describe(*measured, problem.window->held_back) : "";

  solve::EnsembleRecord record;
  record.prediction = &prediction;
  record.statistics = &statistics;
  record.u0 = problem.problem.window ? problem.problem.window->u0 : problem.problem.u0;
  record.operator_std = solve::operator_standard_deviation(*root, problem.problem, statistics.mean);
  const double outside = solve::fraction_outside_coverage(record.operator_std, prior_variance);
  record.truth = problem.truth;
  record.comparison = comparison;
  record.attributes = {
      {"run_dir", options.run_dir},
      {"initial_condition", problem.description},
      {"operator", config.predict.operator_source},
      {"sampler", distilled ? "none" : predictor.sampler},
      {"solver", problem.problem.window && predictor.solver == "spectral"
                     ? std::string("bounded (Chebyshev, CVODE)")
                     : predictor.solver},
      {"band", pipeline::band_calibration(run, options.run_dir)},
      {"equation_terms",
       predictor.shift ? "weak form: " + predictor.shift->description : std::string("root")},
      {"config", config.resolved_toml},
      {"created_by", "bhpm " BHPM_VERSION}};
  if (measured) {
    record.attributes["window_measurements"] = measured_text;
    record.measurements = measured;
    record.held_back = problem.window->held_back;
  }
  record.outside_coverage = outside;
  if (problem.problem.window) record.conditions = &problem.problem.window->conditions;
  solve::write_ensemble_file(output, record);
  print_summary(prediction, statistics, comparison, job);
  if (measured) std::printf("against the experiment's %s\n", measured_text.c_str());
  print_coverage_warning(outside);
  const double seconds = stopwatch.seconds();
  std::printf("wrote %s (%.1f s)\n", output.c_str(), seconds);
  return 0;
}

}  // namespace

int run_predict(const PredictCommandOptions& options) {
  if (holds_a_system(options.run_dir)) return run_system_prediction(options);
  const MpiJob job("predict");
  try {
    return predict(options, job);
  } catch (const std::exception& error) {
    job.abort_if_several(util::error_message(error));
    throw;
  }
}

}  // namespace bhpm::cli
