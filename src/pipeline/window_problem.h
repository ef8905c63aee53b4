#pragma once
/// A training experiment's own initial-boundary value problem on its window, for `bhpm
/// predict --window-from` (docs/boundary-conditions.md, "An experiment's own window"): u0
/// and the boundary data read off the experiment's trained leaf (model/leaf_window.h), as
/// many conditions at each end as the root's posterior mean needs at u0
/// (pde::conditions_needed), on kWindowIntervals Chebyshev intervals, output at the run's
/// output_dt (the nearest spacing that divides the window's duration), at the bounded
/// solver's own tolerances (pde/bounded_solve.h: looser ones let every sample blow up).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/leaf_model.h"
#include "pde/measured_experiment.h"
#include "pipeline/run_folder.h"
#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"

namespace bhpm::pipeline {

/// Chebyshev intervals of a window: 128 resolve a Burgers front of width 2 nu / A = 0.4 on
/// a 16-wide window to 1e-6 (bench/bounded_solve's front on [-2, 2]: 48 intervals give
/// 1.3e-7 at the default tolerance; the central spacing scales with the width).
constexpr std::int64_t kWindowIntervals = 128;

struct TrainingWindow {
  std::shared_ptr<const solve::WindowProblem> problem;
  double t_start = 0.0;     ///< the window's first time (the problem's time 0)
  at::Tensor x, t, u;       ///< [P] the experiment's measurements (t on the data's clock)
  std::string description;  ///< "training experiment 2 on its window [a, b] x [t0, t1]: ..."
};

/// Experiment `experiment` of RUN_DIR's training set, its window from the training dataset
/// `data` (RUN_DIR/data.h5 for runs made by `bhpm run`). Throws std::invalid_argument naming
/// the experiment when the set has none of that index, or the file when it cannot be read.
TrainingWindow training_window(const std::string& run_dir, const std::string& data,
                               const TrainedRun& run, std::int64_t experiment);

/// The same from a root whose posterior mean counts the conditions, the run's
/// configuration, the trained `leaves` and the training experiments' `measured` points
/// (experiment in range: not checked again).
TrainingWindow training_window(const gp::SparseVariationalGpImpl& root,
                               const config::RunConfig& config, const model::LeafModelImpl& leaves,
                               const std::vector<pde::MeasuredExperiment>& measured,
                               std::int64_t experiment);

/// "N measurements: relative L2 error of the mean X, RMSE Y, inside the 95 % band Z %": a
/// prediction on the window (its ensemble and statistics) against the experiment's own
/// measurements, noise included, its statistics read at each measurement's (x, t)
/// (solve/scattered_statistics.h).
std::string measurement_comparison(const TrainingWindow& window,
                                   const solve::EnsembleSolution& ensemble,
                                   const solve::EnsembleStatistics& statistics);

}  // namespace bhpm::pipeline
