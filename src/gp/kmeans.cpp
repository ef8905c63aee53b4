#include "gp/kmeans.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gp/argument_checks.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::gp {

namespace {

/// Squared distances [N, k] between the rows of x [N, D] and centres [k, D].
at::Tensor squared_distances(const at::Tensor& x, const at::Tensor& centres) {
  return at::addmm(x.square().sum(1, true) + centres.square().sum(1).unsqueeze(0), x, centres.t(),
                   1, -2)
      .clamp_min(0.0);
}

/// Index i drawn with probability weight_i / sum(weight), uniform when the sum is 0.
std::int64_t draw_weighted(util::Rng& rng, const at::Tensor& weight) {
  const at::Tensor w = weight.to(at::kCPU).contiguous();
  const double* data = w.data_ptr<double>();
  const std::int64_t n = w.numel();
  double total = 0.0;
  for (std::int64_t i = 0; i < n; ++i) total += data[i];
  if (!(total > 0.0)) return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n)));
  const double target = rng.uniform() * total;
  double cumulative = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    cumulative += data[i];
    if (data[i] > 0.0 && cumulative > target) return i;
  }
  for (std::int64_t i = n - 1; i >= 0; --i)  // rounding: the last point with weight
    if (data[i] > 0.0) return i;
  return n - 1;
}

at::Tensor seed_centres(const at::Tensor& x, std::int64_t k, util::Rng& rng) {
  const std::int64_t n = x.size(0);
  std::vector<std::int64_t> chosen{static_cast<std::int64_t>(rng.below(n))};
  at::Tensor nearest = squared_distances(x, x[chosen[0]].unsqueeze(0)).squeeze(1);
  while (static_cast<std::int64_t>(chosen.size()) < k) {
    chosen.push_back(draw_weighted(rng, nearest));
    nearest = at::minimum(nearest, squared_distances(x, x[chosen.back()].unsqueeze(0)).squeeze(1));
  }
  return x.index_select(0, at::tensor(chosen, at::kLong).to(x.device())).clone();
}

/// Mean of each cluster's points [k, D]; an empty cluster gets the point farthest from
/// its assigned centre (distinct points for distinct empty clusters).
at::Tensor update_centres(const at::Tensor& x, const at::Tensor& labels, const at::Tensor& distance,
                          std::int64_t k) {
  const at::Tensor sums = at::zeros({k, x.size(1)}, x.options()).index_add_(0, labels, x);
  const at::Tensor counts = at::bincount(labels, {}, k);
  at::Tensor centres = sums / counts.clamp_min(1).unsqueeze(1).to(at::kDouble);
  const at::Tensor empty = at::nonzero(counts == 0).flatten();
  if (empty.numel() > 0) {
    const at::Tensor farthest = std::get<1>(distance.topk(empty.numel()));
    centres.index_copy_(0, empty, x.index_select(0, farthest));
  }
  return centres;
}

}  // namespace

void validate(const KMeansOptions& options, std::int64_t points) {
  util::require_option(options.clusters >= 1 && options.clusters <= points, "k-means", "clusters",
                       "must be >= 1 and <= the number of points " + std::to_string(points),
                       util::option_value(options.clusters));
  util::require_at_least(options.max_iterations, 0, "k-means", "max_iterations");
}

at::Tensor kmeans(const at::Tensor& x, const KMeansOptions& options) {
  require_matrix(x, -1, -1, "k-means", "x");
  validate(options, x.size(0));
  const at::NoGradGuard no_grad;
  const at::Tensor data = x.detach().contiguous();
  util::Rng rng(util::derive_seed(options.seed, "kmeans", 0));
  at::Tensor centres = seed_centres(data, options.clusters, rng);
  at::Tensor labels;
  for (std::int64_t iteration = 0; iteration < options.max_iterations; ++iteration) {
    const auto [distance, nearest] = squared_distances(data, centres).min(1);
    if (labels.defined() && at::equal(nearest, labels)) break;
    labels = nearest;
    centres = update_centres(data, labels, distance, options.clusters);
  }
  return centres;
}

}  // namespace bhpm::gp
