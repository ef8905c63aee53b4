#pragma once
/// How well a trained system (pipeline/trained_system.h) knows its operator, field by field
/// (docs/systems.md, "Learning a system"): on a simulated set's solution grids, the exact
/// root inputs (every field's partials to order K by FFT, pde/box_partials.h) and the exact
/// u_i,t (the system's right-hand side) at up to `max_points` grid points (the same number
/// from each stored snapshot, drawn with the run's seed), each root's predictive
/// N(m_i, s_i^2 + sigma_i^2) (or its f alone, N(m_i, s_i^2)) scored by eval/operator_metrics.h.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "eval/operator_metrics.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/system_experiment_set.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

/// The true operator at grid points of a set.
struct SystemOperatorTruth {
  at::Tensor inputs;      ///< v [N, q R] in system_root_rows' order
  at::Tensor u_t;         ///< [N, q]
  at::Tensor experiment;  ///< [N] int64
  at::Tensor x, y, t;     ///< [N] double: the points (y undefined in one dimension)
};

/// The truth at up to max_points points of `set`'s grids (every one for 0 or when fewer),
/// experiment by experiment, the same number of points from each.
SystemOperatorTruth system_operator_truth(const pde::FieldSystem& system,
                                          const pde::PeriodicBox& box,
                                          const pde::SystemExperimentSet& set, int order,
                                          std::int64_t max_points, std::uint64_t seed);

/// Per field (in the system's order) the metrics of its root against `truth`.
std::vector<std::pair<std::string, eval::OperatorMetrics>> score_system_roots(
    const TrainedSystem& trained, const SystemOperatorTruth& truth, bool function_only);

/// The scores as a metrics file: the context's (key, text) pairs, then "fields" with one
/// object per field as eval/metrics_json.h writes one field's, and, when given,
/// "leaves_kept_back" with the truth-free route's leaves scored on their kept-back
/// measurements (pipeline/system_leaf_targets.h) the same way.
std::string system_metrics_json(
    const std::vector<std::pair<std::string, eval::OperatorMetrics>>& scores,
    const std::vector<std::pair<std::string, std::string>>& context,
    const std::vector<std::pair<std::string, eval::OperatorMetrics>>& leaves_kept_back = {});

}  // namespace bhpm::pipeline
