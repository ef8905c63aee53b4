#pragma once
/// Seeded random numbers. One configuration seed drives everything: each stream
/// (an experiment's initial condition, its measurement points, its noise) gets its own
/// seed derived from (seed, stream name, index), so adding experiments never changes
/// the ones already there. The transforms are written here, not taken from <random>'s
/// distributions, so the numbers do not depend on the standard library.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bhpm::util {

/// A well-mixed 64-bit seed from (seed, stream, index) (SplitMix64 over an FNV-1a hash).
std::uint64_t derive_seed(std::uint64_t seed, const std::string& stream, std::uint64_t index);

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform on [0, 1) with 53 random bits.
  double uniform();
  /// Standard normal (Marsaglia polar method).
  double normal();
  /// Uniform integer in [0, n), n > 0, without modulo bias.
  std::uint64_t below(std::uint64_t n);
  /// `count` distinct integers from [0, n), in random order (count <= n).
  std::vector<std::int64_t> sample_without_replacement(std::int64_t n, std::int64_t count);
  /// `count` distinct integers from [0, weights.size()), drawn one after another each with
  /// probability proportional to its weight among those not yet drawn (Efraimidis and
  /// Spirakis 2006: the count largest keys log(U_i) / w_i), in random order. Weights finite
  /// and > 0, count <= weights.size().
  std::vector<std::int64_t> weighted_sample_without_replacement(const std::vector<double>& weights,
                                                                std::int64_t count);

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0;
};

/// A double tensor of the given shape filled with rng.normal(), in row-major order, on
/// `device` (drawn on the CPU, so the numbers are the same on every device).
at::Tensor normal_tensor(Rng& rng, at::IntArrayRef sizes, at::Device device = at::kCPU);
/// A double tensor of the given shape filled with rng.uniform() (on [0, 1)), row-major,
/// on `device`.
at::Tensor uniform_tensor(Rng& rng, at::IntArrayRef sizes, at::Device device = at::kCPU);

}  // namespace bhpm::util
