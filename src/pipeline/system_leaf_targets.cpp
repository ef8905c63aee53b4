#include "pipeline/system_leaf_targets.h"

#include <ATen/ATen.h>

#include "util/random.h"

namespace bhpm::pipeline {

SystemOperatorTruth system_leaf_targets(const TrainedSystem& trained, model::SystemLeafData data,
                                        std::int64_t max_points,
                                        const model::TrainingCallback& progress) {
  const std::int64_t fitted = data.points() - data.points() / 5;  // 4 of every 5
  const auto first = [&](const at::Tensor& values) {
    return values.defined() ? values.slice(1, 0, fitted).contiguous() : values;
  };
  data.x = first(data.x), data.y = first(data.y), data.t = first(data.t), data.u = first(data.u);
  model::PhaseResult phase;
  const model::SystemLeaves leaves =
      fit_system_leaves(trained.config, data, "system_target_leaf_batches", phase, progress);
  const std::int64_t all = data.leaves() * data.points();
  const std::uint64_t seed = util::derive_seed(trained.config.sets.seed, "system_targets", 0);
  const model::SystemRootData rows =
      system_root_rows(*leaves, data, trained.config.learning.order,
                       max_points > 0 && max_points < all ? max_points : all, seed);
  return {rows.inputs, rows.targets, rows.leaf, rows.x, at::Tensor(), rows.t};
}

}  // namespace bhpm::pipeline
