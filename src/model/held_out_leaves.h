#pragma once
/// Scoring without a known equation (docs/evaluation.md, "Scoring without a known
/// equation"): held-out experiments get leaves of their own, fitted by phase 1 alone to
/// part of their measurements. Their Taylor-mode (v, u_t) are the root's test data in
/// place of exact derivatives and a true operator; the measurements kept back from the
/// fit score the leaves themselves.

#include <cstdint>

#include "gp/normal_distribution.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"

namespace bhpm::model {

/// New leaves (architecture `options`, one per experiment of `fitted`), trained by phase 1
/// (`schedule`; no checkpoint) from seeds derived from (seed, "held_out_leaves").
LeafModel fit_held_out_leaves(const LeafData& fitted, LeafModelOptions options,
                              LeafTrainingOptions schedule, std::uint64_t seed,
                              const TrainingCallback& progress = {});

/// The leaves' predictive distribution of a measurement at `points` [L, B]: mean u_i(x, t)
/// and variance sigma_i^2 + Var(u_i(x, t)) under the last-layer Laplace posterior from
/// the `fitted` points (model/leaf_laplace.h); [L B] rows leaf by leaf, detached.
gp::MarginalNormal leaf_predictive(const LeafModelImpl& leaves, const LeafData& fitted,
                                   const LeafData& points);

}  // namespace bhpm::model
