#pragma once
/// Summaries of an ensemble of IBVP solutions under operator samples (paper section 2.3
/// and Fig. 4: predictive mean and the empirical 95 % interval from 32 samples), and how
/// they compare with a known true solution.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "solve/ensemble_solution.h"

namespace bhpm::solve {

/// Per output point, over the sound members only (diverged members never enter).
struct EnsembleStatistics {
  at::Tensor mean;                ///< [T, n]
  at::Tensor standard_deviation;  ///< [T, n], with the 1/(S-1) normalisation (0 for S = 1)
  at::Tensor lower;               ///< [T, n] 2.5 % quantile
  at::Tensor median;              ///< [T, n] 50 % quantile
  at::Tensor upper;               ///< [T, n] 97.5 % quantile
  /// [T, n] the 95 % prediction band for the truth: mean -+ t_{m-1}(0.975) sqrt(1 + 1/m)
  /// standard_deviation over m sound members (util/student_t.h; the empirical quantiles
  /// of m = 32 members hold a draw only about 89 % of the time). Equal to the mean for m = 1.
  at::Tensor band_lower, band_upper;
  std::int64_t members = 0;  ///< sound members used
};

/// The half-width factor of a p prediction band from m members:
/// t_{m-1}((1 + p) / 2) sqrt(1 + 1/m) (m >= 2; 0 for m = 1).
double prediction_band_factor(std::int64_t members, double p);

/// Quantiles by linear interpolation between order statistics (type 7 of Hyndman and Fan,
/// numpy's default). Throws std::runtime_error when every member diverged.
EnsembleStatistics ensemble_statistics(const EnsembleSolution& ensemble);

/// The ensemble against the true solution u [T, n] on the same grid.
struct TruthComparison {
  double relative_l2 = 0;    ///< |mean - u|_2 / |u|_2 over every point
  double rmse = 0;           ///< root mean square of mean - u
  double band_coverage = 0;  ///< fraction of points with band_lower <= u <= band_upper
};

/// Throws std::invalid_argument for a truth of another shape.
TruthComparison compare_with_truth(const EnsembleStatistics& statistics, const at::Tensor& truth);

}  // namespace bhpm::solve
