#include "pipeline/system_scoring.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

#include "eval/metrics_json.h"
#include "pde/box_partials.h"
#include "pde/system_etdrk4.h"
#include "util/random.h"

namespace bhpm::pipeline {

SystemOperatorTruth system_operator_truth(const pde::FieldSystem& system,
                                          const pde::PeriodicBox& box,
                                          const pde::SystemExperimentSet& set, int order,
                                          std::int64_t max_points, std::uint64_t seed) {
  if (max_points < 0) throw std::invalid_argument("system operator truth: max_points must be >= 0");
  const std::vector<pde::Partial> partials = system.expression_partials(order);
  const std::int64_t q = system.size(), points = box.points();
  const std::int64_t inputs = static_cast<std::int64_t>(partials.size());
  const std::int64_t times = static_cast<std::int64_t>(set.t.size());
  const std::int64_t snapshots = set.experiments * times;
  const std::int64_t per_snapshot =
      max_points == 0 ? points : std::clamp<std::int64_t>(max_points / snapshots, 1, points);
  pde::SystemEtdrk4 right_hand_side(box, system);
  util::Rng rng(util::derive_seed(seed, "system_operator_truth", 0));
  const at::Tensor grid_x = at::tensor(box.x(), at::kDouble).repeat({box.ny()});
  const at::Tensor grid_y =
      at::tensor(box.y(), at::kDouble).repeat_interleave(box.nx());  // [points], row-major
  std::vector<at::Tensor> v, u_t, experiment, x, y, t;
  for (std::int64_t s = 0; s < snapshots && (max_points == 0 || s * per_snapshot < max_points);
       ++s) {
    const auto begin = set.u.begin() + s * q * points;
    const std::vector<double> u(begin, begin + q * points);
    const at::Tensor chosen =
        per_snapshot == points
            ? at::arange(points, at::kLong)
            : at::tensor(rng.sample_without_replacement(points, per_snapshot), at::kLong);
    v.push_back(at::tensor(pde::box_partials(box, u, partials), at::kDouble)
                    .view({inputs, points})
                    .index_select(1, chosen)
                    .t());
    u_t.push_back(at::tensor(right_hand_side.time_derivative(u), at::kDouble)
                      .view({q, points})
                      .index_select(1, chosen)
                      .t());
    experiment.push_back(at::full({per_snapshot}, s / times, at::kLong));
    x.push_back(grid_x.index_select(0, chosen));
    y.push_back(grid_y.index_select(0, chosen));
    t.push_back(at::full({per_snapshot}, set.t[static_cast<std::size_t>(s % times)], at::kDouble));
  }
  return {at::cat(v).contiguous(),
          at::cat(u_t).contiguous(),
          at::cat(experiment),
          at::cat(x),
          box.dimensions() == 2 ? at::cat(y) : at::Tensor(),
          at::cat(t)};
}

namespace {

/// The root's marginals at v [N, D], 8192 rows at a time (the cross-covariance of all N
/// rows at once would not fit in memory on a 2-D grid).
gp::MarginalNormal chunked_marginals(const gp::ExactGpImpl& root, const at::Tensor& v) {
  std::vector<at::Tensor> means, variances;
  const gp::ExactGpFactor factor = root.factorize();
  for (const at::Tensor& chunk : v.split(8192)) {
    const gp::MarginalNormal f = root.marginals(chunk, factor);
    means.push_back(f.mean);
    variances.push_back(f.variance);
  }
  return {at::cat(means), at::cat(variances)};
}

}  // namespace

std::vector<std::pair<std::string, eval::OperatorMetrics>> score_system_roots(
    const TrainedSystem& trained, const SystemOperatorTruth& truth, bool function_only) {
  std::vector<std::pair<std::string, eval::OperatorMetrics>> scores;
  const std::vector<std::string>& fields = trained.config.system.fields;
  const at::NoGradGuard no_grad;
  for (std::size_t i = 0; i < trained.roots.size(); ++i) {
    const gp::ExactGpImpl& root = *trained.roots[i];
    const gp::MarginalNormal f = chunked_marginals(root, truth.inputs);
    const at::Tensor variance =
        function_only ? f.variance : f.variance + root.likelihood()->variance();
    scores.emplace_back(fields[i],
                        eval::operator_metrics(f.mean, variance,
                                               truth.u_t.select(1, static_cast<std::int64_t>(i))));
  }
  return scores;
}

std::string system_metrics_json(
    const std::vector<std::pair<std::string, eval::OperatorMetrics>>& scores,
    const std::vector<std::pair<std::string, std::string>>& context,
    const std::vector<std::pair<std::string, eval::OperatorMetrics>>& leaves_kept_back) {
  nlohmann::ordered_json file;
  for (const auto& [key, text] : context) file[key] = text;
  for (const auto& [field, metrics] : scores)
    file["fields"][field] = nlohmann::json::parse(eval::metrics_json(metrics, {}, {}));
  for (const auto& [field, metrics] : leaves_kept_back)
    file["leaves_kept_back"][field] = nlohmann::json::parse(eval::metrics_json(metrics, {}, {}));
  return file.dump(2) + "\n";
}

}  // namespace bhpm::pipeline
