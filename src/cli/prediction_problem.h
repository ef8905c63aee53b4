#pragma once
/// The initial-value problem `bhpm predict` solves, from its command line: u0 from an
/// expression (`--ic`), from samples at points (`--ic-file`) or from a stored experiment
/// (`--ic-from FILE:[SET/]EXPERIMENT`, whose true solution is then compared with), on the
/// run's domain, grid and horizon (config [domain] and [solver]).

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>

#include "cli/predict_command.h"
#include "config/run_config.h"
#include "gp/sparse_variational_gp.h"
#include "model/training_progress.h"
#include "pipeline/window_problem.h"
#include "solve/predictor.h"

namespace bhpm::cli {

/// The IBVP to solve and, for a stored experiment, its true solution [T, n].
struct Problem {
  solve::PredictionProblem problem;
  at::Tensor truth;
  std::string description;
  /// `--window-from [SET/]E`: the experiment's window and the measurements it is scored on
  /// (problem.window is its problem).
  std::optional<pipeline::ExperimentWindow> window;
};

/// The problem the options name (exactly one of --ic, --ic-file, --ic-from) on the run's
/// domain; predict.dt, when set, replaces the time step. On a bounded domain
/// (domain.boundary = "conditions") --ic and --ic-file give u0 at its Chebyshev points and
/// the problem is pipeline::domain_problem's. Throws std::invalid_argument naming the
/// option for an initial condition that is not finite or not periodic (on a periodic
/// domain), conditions that do not fit the root's mean or u0, or an experiment the file
/// lacks.
Problem make_problem(const PredictCommandOptions& options, const pipeline::TrainedRun& run);

/// `--window-from [train/]E`: training experiment E's own problem on its window; `--window-from
/// test/E`: held-out experiment E's, from a leaf fitted now (`progress` gets its training
/// reports) (pipeline/window_problem.h); the conditions are counted for the root's posterior
/// mean whatever --operator solves. Throws std::invalid_argument for an experiment the run
/// lacks.
Problem window_problem(const PredictCommandOptions& options, const pipeline::TrainedRun& run,
                       const model::TrainingCallback& progress);

/// "" when `--window-from` parses (E, train/E or test/E), else why not: a usage error.
std::string window_reference_error(const std::string& text);

/// "" when `--ic-from FILE:EXPERIMENT` parses and FILE exists, else why not: a usage error
/// (exit 2), as for a missing --ic-file.
std::string reference_error(const std::string& text);

/// Puts the root and the problem's grid on compute.device (the solver follows the grid);
/// throws std::runtime_error when that device cannot be used.
void place_on_device(const config::RunConfig& config, gp::SparseVariationalGp root,
                     solve::PredictionProblem& problem);

}  // namespace bhpm::cli
