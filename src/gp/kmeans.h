#pragma once
/// k-means clustering (Lloyd's iterations from k-means++ seeding, Arthur and
/// Vassilvitskii 2007): the paper places the sparse GP's inducing inputs at the k-means
/// centres of the root inputs (appendix B).
///
/// Seeding: the first centre is a uniformly drawn point; each next one is point i with
/// probability D(i)^2 / sum_j D(j)^2, D(i) the distance to the nearest centre so far
/// (uniform when every D is 0). Lloyd: assign each point to its nearest centre, move each
/// centre to the mean of its points; a centre left without points jumps to the point
/// farthest from its own centre. Stops when no assignment changes or after
/// max_iterations. Draws come from util::Rng(derive_seed(seed, "kmeans", 0)), so the
/// centres are a function of (x, options) on a given machine and thread count.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace bhpm::gp {

struct KMeansOptions {
  std::int64_t clusters = 128;        ///< k (>= 1, <= number of points)
  std::int64_t max_iterations = 100;  ///< Lloyd iterations (>= 0; 0 returns the seeding)
  std::uint64_t seed = 0;             ///< seeds the k-means++ draws
};

/// Throws util::OptionError naming the field, its value and the rule it breaks
/// (points = the number of rows of the data, for the rule k <= N).
void validate(const KMeansOptions& options, std::int64_t points);

/// Centres [k, D] of x [N, D] (double). Throws std::invalid_argument for k < 1, k > N or
/// data that are not a double [N, D] tensor. Not differentiable (computed without grad).
at::Tensor kmeans(const at::Tensor& x, const KMeansOptions& options);

}  // namespace bhpm::gp
