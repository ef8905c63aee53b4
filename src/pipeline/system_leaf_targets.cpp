#include "pipeline/system_leaf_targets.h"

#include <ATen/ATen.h>

#include "util/random.h"

namespace bhpm::pipeline {

namespace {

/// Points [begin, end) of every experiment of `data`.
model::SystemLeafData points_between(const model::SystemLeafData& data, std::int64_t begin,
                                     std::int64_t end) {
  const auto part = [&](const at::Tensor& values) {
    return values.defined() ? values.slice(1, begin, end).contiguous() : values;
  };
  return {part(data.x), part(data.y), part(data.t), part(data.u), data.boxes};
}

/// Per field, the leaves' N(u_leaf, sigma^2) against the measurements of `kept` that
/// measure the field.
std::vector<std::pair<std::string, eval::OperatorMetrics>> kept_back_scores(
    const model::SystemLeavesImpl& leaves, const model::SystemLeafData& kept,
    const std::vector<std::string>& fields) {
  const at::NoGradGuard no_grad;
  const at::Tensor predicted =
      leaves.network().forward_fields(kept.x, kept.y, kept.t, kept.boxes).to(at::kDouble);
  const at::Tensor variance =
      leaves.noise_scale().square().unsqueeze(1).expand_as(predicted);  // [L, K, q]
  std::vector<std::pair<std::string, eval::OperatorMetrics>> scores;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const auto field = static_cast<std::int64_t>(f);
    const at::Tensor measured = kept.u.select(2, field);
    const at::Tensor observed = ~at::isnan(measured);
    if (!observed.any().item<bool>()) continue;  // the field was measured at no kept point
    scores.emplace_back(fields[f],
                        eval::operator_metrics(predicted.select(2, field).masked_select(observed),
                                               variance.select(2, field).masked_select(observed),
                                               measured.masked_select(observed)));
  }
  return scores;
}

}  // namespace

SystemLeafTargets system_leaf_targets(const TrainedSystem& trained, model::SystemLeafData data,
                                      std::int64_t max_points,
                                      const model::TrainingCallback& progress) {
  const std::int64_t all_points = data.points();
  const std::int64_t fitted = all_points - all_points / 5;  // 4 of every 5
  const model::SystemLeafData kept = points_between(data, fitted, all_points);
  data = points_between(data, 0, fitted);
  model::PhaseResult phase;
  const model::SystemLeaves leaves =
      fit_system_leaves(trained.config, data, "system_target_leaf_batches", phase, progress);
  const std::int64_t all = data.leaves() * data.points();
  const std::uint64_t seed = util::derive_seed(trained.config.sets.seed, "system_targets", 0);
  const model::SystemRootData rows =
      system_root_rows(*leaves, data, trained.config.learning.order,
                       max_points > 0 && max_points < all ? max_points : all, seed);
  SystemLeafTargets targets{{rows.inputs, rows.targets, rows.leaf, rows.x, at::Tensor(), rows.t},
                            {}};
  if (kept.points() > 0)
    targets.kept_back = kept_back_scores(*leaves, kept, trained.config.system.fields);
  return targets;
}

}  // namespace bhpm::pipeline
