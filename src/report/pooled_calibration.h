#pragma once
/// The calibration of a run's predictions pooled over all of them (the definitions of
/// bench/calibration_table.py's "pooled" lines): one initial condition's errors are coherent
/// over (x, t), so its own coverage scatters widely even when the ensemble is calibrated;
/// pooled over every grid value (t > 0) of every prediction with a truth, a calibrated
/// ensemble meets each reference below. With m sound members X_1 .. X_m, their mean and std
/// (1/(m - 1)) at each grid value and y the truth:
///   coverage      fraction of y inside mean -+ t_{m-1}((1 + p)/2) sqrt(1 + 1/m) std: p
///   error/spread  sqrt(sum (mean - y)^2 / sum std^2) / mean over predictions of
///                 sqrt(1 + 1/m): 1 (the finite-m correction of the mean's own error)
///   spread/skill  the energy score's sum_pred mean_{i != j} ||X_i - X_j|| over
///                 sum_pred mean_i ||X_i - y||, norms over a prediction's whole field: 1
///   rank histogram  y's rank among the m members at each grid value, m + 1 bins as
///                 fractions: each bin 1/(m + 1)

#include <cstdint>
#include <random>
#include <vector>

namespace bhpm::report {

/// What one prediction adds to the pool: sums over its scored grid values (t > 0).
struct CalibrationSums {
  std::int64_t members = 0;         ///< m sound members
  std::int64_t points = 0;          ///< grid values scored: (T - 1) n
  std::vector<double> inside;       ///< per nominal level: values y inside the band
  double squared_error = 0;         ///< sum (mean - y)^2
  double variance = 0;              ///< sum std^2
  double pairwise_distance = 0;     ///< sum_{i != j} ||X_i - X_j|| / (m (m - 1))
  double truth_distance = 0;        ///< sum_i ||X_i - y|| / m
  std::vector<double> rank_counts;  ///< [m + 1] grid values with y at rank r
};

/// The pooled scores of a run.
struct PooledCalibration {
  std::int64_t predictions = 0;  ///< predictions pooled
  std::vector<double> levels;    ///< nominal p
  std::vector<double> coverage;  ///< pooled coverage at each level
  double error_spread = 0;       ///< finite-m corrected; 1 when calibrated
  double spread_skill = 0;       ///< energy score's; 1 when calibrated
  /// The rank histogram's m: the lower median of the predictions' m; predictions with
  /// another m are left out of the histogram.
  std::int64_t rank_members = 0;
  std::int64_t rank_predictions = 0;   ///< predictions in the histogram
  std::vector<double> rank_histogram;  ///< [rank_members + 1] fractions summing to 1
};

/// Whole-field distances of one prediction: members [m][T * n] and truth [T * n], values
/// from index `first` on (first = n leaves t = 0 out).
struct FieldDistances {
  double pairwise = 0;  ///< sum_{i != j} ||X_i - X_j|| / (m (m - 1))
  double truth = 0;     ///< sum_i ||X_i - y|| / m
};
FieldDistances field_distances(const std::vector<std::vector<double>>& members,
                               const std::vector<double>& truth, std::size_t first);

/// y's rank among the members `sorted` ascending: members strictly below y plus, when
/// some equal y, a uniform draw from 0 .. (number equal) from `ties` (seed it with 0 per
/// prediction, so that a report redraws the same histogram).
std::int64_t truth_rank(const std::vector<double>& sorted, double y, std::mt19937_64& ties);

/// Pools `sums` (at least one; all with inside.size() == levels.size()) as the file's
/// comment says. Throws std::invalid_argument for an empty list or mismatched levels.
PooledCalibration pool(const std::vector<double>& levels, const std::vector<CalibrationSums>& sums);

}  // namespace bhpm::report
