// kmeans: recovers well-separated clusters, is deterministic from its seed, and
// rejects k outside [1, N].

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gp/kmeans.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;

struct Clusters {
  at::Tensor x;           // [4 * per, 2], clusters in blocks, then shuffled
  at::Tensor true_means;  // sample mean of each block [4, 2]
};

/// Four clusters of `per` points, standard deviation 0.5, centres 10 apart.
Clusters four_clusters(std::int64_t per) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(17);
  const at::Tensor centres =
      at::tensor({0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 10.0, 10.0}, kReal).view({4, 2});
  const at::Tensor blocks =
      centres.unsqueeze(1) + 0.5 * at::normal(0.0, 1.0, {4, per, 2}, gen, at::kDouble);
  const at::Tensor order = at::randperm(4 * per, gen, at::kLong);
  return {blocks.reshape({4 * per, 2}).index_select(0, order), blocks.mean(1)};
}

/// For each row of `expected`, the distance to the nearest row of `found`; max over rows.
/// (compute_mode 2: direct differences, exact 0 for equal rows.)
double worst_match(const at::Tensor& found, const at::Tensor& expected) {
  return std::get<0>(at::cdist(expected, found, 2.0, 2).min(1)).max().item<double>();
}

}  // namespace

TEST(KMeans, recovers_well_separated_cluster_means) {
  const Clusters c = four_clusters(50);
  KMeansOptions options;
  options.clusters = 4;
  const at::Tensor centres = kmeans(c.x, options);
  ASSERT_EQ(centres.sizes(), (std::vector<std::int64_t>{4, 2}));
  // Lloyd's fixed point on separated clusters is exactly each cluster's sample mean.
  EXPECT_LT(worst_match(centres, c.true_means), 1e-12);
  EXPECT_LT(worst_match(c.true_means, centres), 1e-12);
}

TEST(KMeans, is_deterministic_from_its_seed) {
  const Clusters c = four_clusters(30);
  KMeansOptions options;
  options.clusters = 7;
  options.seed = 3;
  const at::Tensor first = kmeans(c.x, options);
  EXPECT_TRUE(at::equal(first, kmeans(c.x, options)));
  options.max_iterations = 0;  // the k-means++ seeding alone: distinct data points
  const at::Tensor seeds = kmeans(c.x, options);
  EXPECT_LT(worst_match(c.x, seeds), 1e-300);
  EXPECT_EQ(std::get<0>(at::unique_dim(seeds, 0)).size(0), 7);
  options.seed = 4;
  EXPECT_FALSE(at::equal(seeds, kmeans(c.x, options)));
}

TEST(KMeans, seeding_spreads_over_the_clusters) {
  // D^2 sampling: with 4 far-apart clusters and k = 4, every cluster gets a seed for
  // any seed tried here (probability of a miss is below 1e-3 per draw).
  const Clusters c = four_clusters(50);
  KMeansOptions options;
  options.clusters = 4;
  options.max_iterations = 0;
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    options.seed = seed;
    EXPECT_LT(worst_match(kmeans(c.x, options), c.true_means), 3.0) << "seed " << seed;
  }
}

TEST(KMeans, handles_k_equal_to_n_and_duplicate_points) {
  const at::Tensor x = at::tensor({0.0, 0.0, 1.0, 0.0, 0.0, 1.0}, kReal).view({3, 2});
  KMeansOptions options;
  options.clusters = 3;
  const at::Tensor centres = kmeans(x, options);
  EXPECT_LT(worst_match(centres, x), 1e-15);
  const at::Tensor same = at::ones({5, 2}, kReal);
  options.clusters = 2;
  EXPECT_LT((kmeans(same, options) - 1.0).abs().max().item<double>(), 1e-15);
}

TEST(KMeans, rejects_k_outside_one_to_n) {
  const at::Tensor x = at::zeros({5, 2}, kReal);
  KMeansOptions options;
  options.clusters = 0;
  try {
    kmeans(x, options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("k-means: clusters must be >= 1 and <= the number of points 5 "
                                    "(got 0)"));
  }
  options.clusters = 6;
  EXPECT_THROW(kmeans(x, options), std::invalid_argument);
  options.clusters = 2;
  options.max_iterations = -1;
  EXPECT_THROW(kmeans(x, options), std::invalid_argument);
  EXPECT_THROW(kmeans(at::zeros({5}, kReal), KMeansOptions{}), std::invalid_argument);
}
