#pragma once
/// A training experiment's own initial-boundary value problem on its window, for `bhpm
/// predict --window-from` (docs/boundary-conditions.md, "An experiment's own window"): u0
/// and the boundary data read off the experiment's trained leaf (model/leaf_window.h), as
/// many conditions at each end as the root's posterior mean needs at u0
/// (pde::conditions_needed), on pde::kDefaultIntervals Chebyshev intervals, output at the run's
/// output_dt (the nearest spacing that divides the window's duration), at the bounded
/// solver's own tolerances (pde/bounded_solve.h: looser ones let every sample blow up).
/// And the problem of a prediction on the configuration's bounded domain (`bhpm predict
/// --ic/--ic-file` with domain.boundary = "conditions"; docs/boundary-conditions.md,
/// "Conditions in the configuration").

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/leaf_model.h"
#include "model/training_progress.h"
#include "pde/measured_experiment.h"
#include "pipeline/run_folder.h"
#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"
#include "solve/scattered_statistics.h"

namespace bhpm::pipeline {

struct ExperimentWindow {
  std::shared_ptr<const solve::WindowProblem> problem;
  double t_start = 0.0;  ///< the window's first time (the problem's time 0)
  /// [P] the measurements the prediction is scored on (t on the data's clock): a training
  /// experiment's own, or those a held-out experiment's leaf did not see.
  at::Tensor x, t, u;
  at::Tensor noise_variance;  ///< [P] s_p^2 of those measurements (measurement_noise_variance)
  bool held_back = false;     ///< x, t, u were held back from the leaf and from the root
  std::string description;    ///< "training experiment 2 on its window [a, b] x [t0, t1]: ..."
};

/// s_p^2 of measurements u [P] with noise sd `sigma` [P] (undefined where the file gives
/// none): sigma_p^2 where given; otherwise, on a simulated dataset (a version 1 file at
/// `data_path`), its noise attribute squared; otherwise `leaf_sigma`^2, the experiment's
/// leaf's likelihood scale, which holds the noise and the leaf's own misfit.
at::Tensor measurement_noise_variance(const std::string& data_path, const at::Tensor& sigma,
                                      const at::Tensor& u, double leaf_sigma);

/// Experiment `experiment` of RUN_DIR's training set, its window from the training dataset
/// `data` (RUN_DIR/data.h5 for runs made by `bhpm run`). Throws std::invalid_argument naming
/// the experiment when the set has none of that index, or the file when it cannot be read.
ExperimentWindow training_window(const std::string& run_dir, const std::string& data,
                                 const TrainedRun& run, std::int64_t experiment);

/// The same from a root whose posterior mean counts the conditions, the run's
/// configuration, the trained `leaves` and the training experiments' `measured` points
/// (experiment in range: not checked again); noise_variance is left undefined (the window
/// calibration has its own for every experiment).
ExperimentWindow training_window(const gp::SparseVariationalGpImpl& root,
                                 const config::RunConfig& config,
                                 const model::LeafModelImpl& leaves,
                                 const std::vector<pde::MeasuredExperiment>& measured,
                                 std::int64_t experiment);

/// Held-out experiment `experiment` of the dataset `data`'s test set on its own window
/// (`bhpm predict --window-from test/E`): a leaf fitted now, on the CPU with the run's leaf
/// settings (phase 1 of model/held_out_leaves.h), to all but every fifth of its
/// measurements gives u0 and the boundary data as a training experiment's leaf does; the
/// fifth kept back, which neither that leaf nor the root saw, are what
/// measurement_comparison scores. Throws naming the file when it lacks a test set or that
/// experiment.
ExperimentWindow held_out_window(const std::string& data, const TrainedRun& run,
                                 std::int64_t experiment, const model::TrainingCallback& progress);

/// u_t = F on the configuration's bounded domain from u0 [n+1] on its bounded_grid()'s points,
/// under domain.left and domain.right's conditions, to domain.t_end with snapshots every
/// solver.output_dt. Checked before any work: each end must have as many conditions as
/// the root's posterior mean needs at u0 (pde::conditions_needed), and u0 must meet each
/// at t = 0 (pde::require_compatible); otherwise std::invalid_argument naming the end, the
/// count or the condition.
std::shared_ptr<const solve::WindowProblem> domain_problem(const gp::SparseVariationalGpImpl& root,
                                                           const config::SimulateConfig& simulate,
                                                           const at::Tensor& u0);

/// Experiment `experiment` of a bounded set (set.conditions non-empty) on the
/// configuration's bounded domain: u0 its t = 0 row, checked as domain_problem checks it,
/// and `truth` its solution [T, n+1]. Throws std::invalid_argument naming what differs from
/// the configuration (a periodic set, other conditions, another grid or other output
/// times) or an experiment the set lacks.
ExperimentProblem bounded_experiment_problem(const gp::SparseVariationalGpImpl& root,
                                             const config::SimulateConfig& simulate,
                                             const pde::ExperimentSet& set,
                                             std::int64_t experiment);

/// A prediction on the window (its ensemble and statistics) against the window's
/// measurements, which carry their noise (solve::compare_with_measurements with
/// window.noise_variance), read at each measurement's (x, t).
solve::MeasurementComparison measurement_comparison(const ExperimentWindow& window,
                                                    const solve::EnsembleSolution& ensemble,
                                                    const solve::EnsembleStatistics& statistics);

/// "N measurements: relative L2 error of the mean X, RMSE Y, inside the 95 % band of u Z %,
/// of a measurement W %" ("N held-back measurements" for a held-out window).
std::string describe(const solve::MeasurementComparison& comparison, bool held_back);

}  // namespace bhpm::pipeline
