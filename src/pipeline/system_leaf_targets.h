#pragma once
/// What a set's measurements say about a system's operator without a truth
/// (docs/systems.md, "Scoring without solution grids"): new leaves, one per scored
/// experiment, fitted by phase 1 alone (the trained model's leaf settings, no root: they do
/// not learn from the roots being scored) to 4 of every 5 of its measurements; their
/// Taylor-mode partials and u_t at the fitted points are the test rows. The targets carry
/// the leaves' errors, as the training rows do, so the score is an estimate whose bias
/// grows with them (docs/evaluation.md, "Scoring without a known equation", for one field);
/// the fifth kept back scores the new leaves themselves, which says how far their u_t can
/// be trusted.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "eval/operator_metrics.h"
#include "model/adam_phase.h"
#include "model/system_leaves.h"
#include "pipeline/system_scoring.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

struct SystemLeafTargets {
  SystemOperatorTruth rows;  ///< the test rows
  /// Per field (the system's order), the new leaves' predictive N(u_leaf, sigma_leaf^2)
  /// against the kept-back measurements of the field; empty when nothing was kept back
  /// (fewer than 5 points an experiment).
  std::vector<std::pair<std::string, eval::OperatorMetrics>> kept_back;
};

/// The test rows of `data` (the scored set's leaf data, pipeline/trained_system.h): up to
/// `max_points` of the fitted points (every one for 0), the same number from each leaf,
/// drawn with the run's seed; progress of the leaves' phase to `progress`.
SystemLeafTargets system_leaf_targets(const TrainedSystem& trained, model::SystemLeafData data,
                                      std::int64_t max_points,
                                      const model::TrainingCallback& progress = {});

}  // namespace bhpm::pipeline
