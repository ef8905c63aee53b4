// Seed derivation and the random transforms written in util/random.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "util/random.h"

using namespace bhpm::util;

TEST(Random, derived_seeds_differ_by_stream_and_index) {
  std::set<std::uint64_t> seeds;
  for (const char* stream : {"train", "test", "train/measurements"})
    for (std::uint64_t i = 0; i < 100; ++i) seeds.insert(derive_seed(42, stream, i));
  EXPECT_EQ(seeds.size(), 300u);
  EXPECT_EQ(derive_seed(42, "train", 3), derive_seed(42, "train", 3));
  EXPECT_NE(derive_seed(42, "train", 3), derive_seed(43, "train", 3));
}

TEST(Random, normal_has_unit_variance) {
  Rng rng(1);
  const int n = 200000;
  double sum = 0, squares = 0;
  for (int i = 0; i < n; ++i) {
    const double z = rng.normal();
    sum += z;
    squares += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(squares / n, 1.0, 5 * std::sqrt(2.0 / n));
}

TEST(Random, uniform_is_in_the_unit_interval) {
  Rng rng(2);
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 10000, 0.5, 0.02);
}

TEST(Random, sampling_without_replacement_gives_distinct_indices) {
  Rng rng(3);
  const auto chosen = rng.sample_without_replacement(1000, 1000);
  EXPECT_EQ(std::set<std::int64_t>(chosen.begin(), chosen.end()).size(), 1000u);
  const auto few = rng.sample_without_replacement(10, 4);
  for (auto i : few) {
    EXPECT_GE(i, 0);
    EXPECT_LT(i, 10);
  }
  EXPECT_THROW(rng.sample_without_replacement(3, 4), std::invalid_argument);
}

TEST(Random, weighted_sampling_draws_in_proportion_to_the_weights_without_repeats) {
  // One draw from weights 1, 2, 3, 4: probabilities 0.1 .. 0.4 (Monte Carlo, 40000 draws:
  // standard error <= 0.0025). Two draws: the pair is distinct, and P(0 in it) =
  // 0.1 + sum_{j>0} p_j * 0.1 / (1 - p_j) = 0.2694 by the sequential rule.
  Rng rng(11);
  const std::vector<double> weights = {1.0, 2.0, 3.0, 4.0};
  std::vector<int> first(4, 0);
  int zero_in_pair = 0;
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    ++first[static_cast<std::size_t>(rng.weighted_sample_without_replacement(weights, 1)[0])];
    const auto pair = rng.weighted_sample_without_replacement(weights, 2);
    ASSERT_NE(pair[0], pair[1]);
    zero_in_pair += pair[0] == 0 || pair[1] == 0;
  }
  for (std::size_t j = 0; j < 4; ++j)
    EXPECT_NEAR(first[j] / static_cast<double>(draws), weights[j] / 10.0, 0.01) << j;
  const double expected = 0.1 + 0.2 * 0.1 / 0.8 + 0.3 * 0.1 / 0.7 + 0.4 * 0.1 / 0.6;
  EXPECT_NEAR(zero_in_pair / static_cast<double>(draws), expected, 0.01);
  EXPECT_EQ(rng.weighted_sample_without_replacement(weights, 4).size(), 4u);
  EXPECT_THROW(rng.weighted_sample_without_replacement(weights, 5), std::invalid_argument);
  EXPECT_THROW(rng.weighted_sample_without_replacement({1.0, 0.0}, 1), std::invalid_argument);
}
