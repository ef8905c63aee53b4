#include "util/random.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace bhpm::util {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t derive_seed(std::uint64_t seed, const std::string& stream, std::uint64_t index) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : stream) hash = (hash ^ c) * 0x100000001b3ULL;
  return splitmix64(splitmix64(splitmix64(seed) ^ hash) ^ index);
}

double Rng::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double a, b, s;
  do {
    a = 2.0 * uniform() - 1.0;
    b = 2.0 * uniform() - 1.0;
    s = a * a + b * b;
  } while (s >= 1.0 || s == 0.0);
  const double scale = std::sqrt(-2.0 * std::log(s) / s);
  spare_ = b * scale;
  has_spare_ = true;
  return a * scale;
}

std::uint64_t Rng::below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("Rng::below: n must be positive");
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do x = engine_();
  while (x >= limit);
  return x % n;
}

std::vector<std::int64_t> Rng::sample_without_replacement(std::int64_t n, std::int64_t count) {
  if (count < 0 || count > n)
    throw std::invalid_argument("sample_without_replacement: count must be in [0, n]");
  // Partial Fisher-Yates over a sparse permutation: O(count) time and memory.
  std::unordered_map<std::int64_t, std::int64_t> swapped;
  std::vector<std::int64_t> chosen(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const auto j = i + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(n - i)));
    const auto at_j = swapped.count(j) ? swapped[j] : j;
    const auto at_i = swapped.count(i) ? swapped[i] : i;
    chosen[static_cast<std::size_t>(i)] = at_j;
    swapped[j] = at_i;
  }
  return chosen;
}

std::vector<std::int64_t> Rng::weighted_sample_without_replacement(
    const std::vector<double>& weights, std::int64_t count) {
  const auto n = static_cast<std::int64_t>(weights.size());
  if (count < 0 || count > n)
    throw std::invalid_argument("weighted_sample_without_replacement: count must be in [0, n]");
  std::vector<std::pair<double, std::int64_t>> keys(weights.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = weights[static_cast<std::size_t>(i)];
    if (!(w > 0.0 && std::isfinite(w)))
      throw std::invalid_argument("weighted_sample_without_replacement: weights must be > 0");
    keys[static_cast<std::size_t>(i)] = {std::log(1.0 - uniform()) / w, i};  // log of (0, 1]
  }
  std::partial_sort(keys.begin(), keys.begin() + count, keys.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::int64_t> chosen(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    chosen[static_cast<std::size_t>(i)] = keys[static_cast<std::size_t>(i)].second;
  for (std::int64_t i = count - 1; i > 0; --i)  // Fisher-Yates: the order carries no weight
    std::swap(chosen[static_cast<std::size_t>(i)],
              chosen[static_cast<std::size_t>(below(static_cast<std::uint64_t>(i + 1)))]);
  return chosen;
}

namespace {
template <typename Draw>
at::Tensor filled(at::IntArrayRef sizes, at::Device device, Draw draw) {
  at::Tensor out = at::empty(sizes, at::kDouble);
  double* values = out.data_ptr<double>();
  for (std::int64_t i = 0; i < out.numel(); ++i) values[i] = draw();
  return out.to(device);
}
}  // namespace

at::Tensor normal_tensor(Rng& rng, at::IntArrayRef sizes, at::Device device) {
  return filled(sizes, device, [&rng] { return rng.normal(); });
}

at::Tensor uniform_tensor(Rng& rng, at::IntArrayRef sizes, at::Device device) {
  return filled(sizes, device, [&rng] { return rng.uniform(); });
}

}  // namespace bhpm::util
