#include "report/pooled_calibration.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace bhpm::report {

namespace {

/// ||a - b|| over the values from index `first` on.
double field_distance(const std::vector<double>& a, const std::vector<double>& b,
                      std::size_t first) {
  double squares = 0;
  for (std::size_t k = first; k < a.size(); ++k) squares += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(squares);
}

/// The lower median of the predictions' m (Python's statistics.median_low).
std::int64_t lower_median_members(const std::vector<CalibrationSums>& sums) {
  std::vector<std::int64_t> members;
  for (const auto& part : sums) members.push_back(part.members);
  std::sort(members.begin(), members.end());
  return members[(members.size() - 1) / 2];
}

/// Rank counts summed over the predictions with `members` sound members, as fractions.
std::vector<double> rank_histogram(const std::vector<CalibrationSums>& sums, std::int64_t members,
                                   std::int64_t& predictions) {
  std::vector<double> histogram(static_cast<std::size_t>(members) + 1, 0.0);
  double total = 0;
  predictions = 0;
  for (const auto& part : sums) {
    if (part.members != members || part.rank_counts.size() != histogram.size()) continue;
    ++predictions;
    for (std::size_t r = 0; r < histogram.size(); ++r) {
      histogram[r] += part.rank_counts[r];
      total += part.rank_counts[r];
    }
  }
  for (double& fraction : histogram) fraction /= total;
  return histogram;
}

}  // namespace

FieldDistances field_distances(const std::vector<std::vector<double>>& members,
                               const std::vector<double>& truth, std::size_t first) {
  const auto m = static_cast<double>(members.size());
  FieldDistances distances;
  for (std::size_t i = 0; i < members.size(); ++i) {
    distances.truth += field_distance(members[i], truth, first);
    for (std::size_t j = i + 1; j < members.size(); ++j)
      distances.pairwise += 2.0 * field_distance(members[i], members[j], first);
  }
  distances.truth /= m;
  distances.pairwise /= m * (m - 1.0);
  return distances;
}

std::int64_t truth_rank(const std::vector<double>& sorted, double y, std::mt19937_64& ties) {
  const auto low = std::lower_bound(sorted.begin(), sorted.end(), y);
  const auto high = std::upper_bound(low, sorted.end(), y);
  const auto below = static_cast<std::int64_t>(low - sorted.begin());
  const auto equal = static_cast<std::uint64_t>(high - low);
  if (equal == 0) return below;
  return below + static_cast<std::int64_t>(ties() % (equal + 1));
}

PooledCalibration pool(const std::vector<double>& levels,
                       const std::vector<CalibrationSums>& sums) {
  if (sums.empty()) throw std::invalid_argument("pooled calibration: no prediction");
  PooledCalibration pooled;
  pooled.predictions = static_cast<std::int64_t>(sums.size());
  pooled.levels = levels;
  pooled.coverage.assign(levels.size(), 0.0);
  double points = 0, squared_error = 0, variance = 0, correction = 0, pairwise = 0, truth = 0;
  for (const auto& part : sums) {
    if (part.inside.size() != levels.size())
      throw std::invalid_argument("pooled calibration: inside counts do not match the levels");
    for (std::size_t l = 0; l < levels.size(); ++l) pooled.coverage[l] += part.inside[l];
    points += static_cast<double>(part.points);
    squared_error += part.squared_error;
    variance += part.variance;
    correction += std::sqrt(1.0 + 1.0 / static_cast<double>(part.members));
    pairwise += part.pairwise_distance;
    truth += part.truth_distance;
  }
  for (double& covered : pooled.coverage) covered /= points;
  correction /= static_cast<double>(sums.size());
  pooled.error_spread = std::sqrt(squared_error / variance) / correction;
  pooled.spread_skill = pairwise / truth;
  pooled.rank_members = lower_median_members(sums);
  pooled.rank_histogram = rank_histogram(sums, pooled.rank_members, pooled.rank_predictions);
  return pooled;
}

}  // namespace bhpm::report
