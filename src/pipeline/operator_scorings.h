#pragma once
/// The three scorings of `bhpm evaluate` (paper section 3): the root against the true
/// operator on a set's stored grids; without a truth, against leaves fitted to the set's
/// own measurements (all but every fifth, which is kept back); and those leaves against
/// the measurements kept back. Each gives metrics.json's metrics, per-experiment RMSE and
/// the description of its target.

#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "eval/operator_metrics.h"
#include "gp/sparse_variational_gp.h"
#include "model/held_out_leaves.h"
#include "model/leaf_data.h"
#include "model/training_progress.h"

namespace bhpm::pipeline {

/// The experiments a scoring reads: `set_name` of the dataset at `data_path`.
struct ScoredSet {
  std::string data_path;
  std::string set_name = "test";  ///< "test" or "train"
  std::int64_t max_points = 0;    ///< at most this many evenly spread points; 0 = all
  std::int64_t experiments = 0;   ///< the first N experiments of the set; 0 = all
  bool function_only = false;     ///< score q(f) alone, without sigma_f^2
};

/// Of every this many measurements of a held-out experiment, one is kept back from its
/// leaf's fit to score the leaf (and a prediction on its window).
inline constexpr std::int64_t kKeepBackEvery = 5;

/// A scoring's metrics, per-experiment RMSE and description, for metrics.json.
struct Scoring {
  eval::OperatorMetrics metrics;
  std::vector<double> per_experiment;
  std::vector<std::pair<std::string, std::string>> context;
  std::string true_equation;  ///< "" for scorings without a truth
};

/// Leaves of the set's own, fitted to all but every fifth measurement (kept back to score them).
struct HeldOutFit {
  model::LeafModel leaves;
  model::LeafData fitted, kept_back;
};

/// The root against the true operator on the set's stored grids (paper section 3).
Scoring truth_scoring(const ScoredSet& scored, const gp::SparseVariationalGpImpl& root);

/// The held-out leaves, fitted on the compute device with the run's leaf settings; with a
/// `progress` callback, a line on stderr says what is fitted and `progress` gets each report.
HeldOutFit fit_scored_leaves(const ScoredSet& scored, const config::RunConfig& config,
                             const model::TrainingCallback& progress);

/// The same for the first `count` experiments of `measured` (`source` names them in
/// messages), each fitted to its fewest-points' share of measurements less every fifth.
HeldOutFit fit_leaves_keeping_back(const std::vector<pde::MeasuredExperiment>& measured,
                                   std::int64_t count, const std::string& source,
                                   const config::RunConfig& config,
                                   const model::TrainingCallback& progress);

/// The root against the held-out leaves' (v, u_t) at their fitted points.
Scoring leaf_target_scoring(const ScoredSet& scored, const gp::SparseVariationalGpImpl& root,
                            const HeldOutFit& fit);

/// The held-out leaves' predictive against the measurements kept back from their fit.
Scoring kept_back_scoring(const HeldOutFit& fit);

/// Writes `scoring` with `context` and its own description to `path` (metrics.json).
void write_scoring(const std::string& path, const Scoring& scoring,
                   std::vector<std::pair<std::string, std::string>> context);

}  // namespace bhpm::pipeline
