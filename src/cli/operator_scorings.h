#pragma once
/// The three scorings of `bhpm evaluate` (paper section 3): the root against the true
/// operator on a set's stored grids; without a truth, against leaves fitted to the set's
/// own measurements (all but every fifth, which is kept back); and those leaves against
/// the measurements kept back. Each gives metrics.json's metrics, per-experiment RMSE and
/// the description of its target.

#include <string>
#include <utility>
#include <vector>

#include "cli/evaluate_command.h"
#include "config/run_config.h"
#include "eval/operator_metrics.h"
#include "gp/sparse_variational_gp.h"
#include "model/held_out_leaves.h"
#include "model/leaf_data.h"

namespace bhpm::cli {

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
Scoring truth_scoring(const EvaluateOptions& options, const gp::SparseVariationalGpImpl& root);

/// The held-out leaves, fitted on the compute device with the run's leaf settings.
HeldOutFit fit_scored_leaves(const EvaluateOptions& options, const config::RunConfig& config);

/// The root against the held-out leaves' (v, u_t) at their fitted points.
Scoring leaf_target_scoring(const EvaluateOptions& options, const gp::SparseVariationalGpImpl& root,
                            const HeldOutFit& fit);

/// The held-out leaves' predictive against the measurements kept back from their fit.
Scoring kept_back_scoring(const HeldOutFit& fit);

/// Writes `scoring` with `context` and its own description to `path` (metrics.json).
void write_scoring(const std::string& path, const Scoring& scoring,
                   std::vector<std::pair<std::string, std::string>> context);

}  // namespace bhpm::cli
