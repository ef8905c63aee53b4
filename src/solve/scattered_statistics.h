#pragma once
/// An ensemble's statistics read at scattered points (x_p, t_p) of a window, to compare a
/// prediction on a measured experiment's window with its measurements: barycentric
/// interpolation in x on the window's Chebyshev grid (exact for its polynomials) and linear
/// interpolation between output times (error O(output_dt^2 u_tt)).

#include <ATen/core/Tensor.h>

#include "pde/chebyshev_grid.h"
#include "solve/ensemble_statistics.h"

namespace bhpm::solve {

/// fields [..., T, n+1] (each [T, n+1] on `grid` at output times `times` [T], uniform) at
/// x, t [P]: [..., P], e.g. every member of an ensemble [S, T, n+1] at a measured
/// experiment's points. Throws std::invalid_argument as statistics_at_points.
at::Tensor values_at_points(const at::Tensor& fields, const pde::ChebyshevGrid& grid,
                            const at::Tensor& times, const at::Tensor& x, const at::Tensor& t);

/// The mean, standard deviation and 95 % band of `statistics` ([T, n+1] on `grid` at output
/// times `times` [T], uniform) at x, t [P] (t on the same clock as `times`, within them),
/// each [1, P], so that compare_with_truth(result, u.unsqueeze(0)) scores the measurements
/// u [P]. Throws std::invalid_argument for points outside the window or shapes that differ.
EnsembleStatistics statistics_at_points(const EnsembleStatistics& statistics,
                                        const pde::ChebyshevGrid& grid, const at::Tensor& times,
                                        const at::Tensor& x, const at::Tensor& t);

/// An ensemble against P scattered measurements u_p = u(x_p, t_p) + noise of variance s_p^2.
struct MeasurementComparison {
  std::int64_t points = 0;
  TruthComparison of_u;  ///< the mean and the 95 % band of u against the measurements
  /// Fraction inside the band of a measurement: the band of u with 1.96 s_p added in
  /// quadrature to its half-width, sqrt(h^2 + 1.96^2 s_p^2).
  double measurement_band_coverage = 0;
};

/// The statistics (as statistics_at_points takes them) against measurements u, noise
/// variances `noise_variance` [P] at x, t [P]; throws as statistics_at_points.
MeasurementComparison compare_with_measurements(const EnsembleStatistics& statistics,
                                                const pde::ChebyshevGrid& grid,
                                                const at::Tensor& times, const at::Tensor& x,
                                                const at::Tensor& t, const at::Tensor& u,
                                                const at::Tensor& noise_variance);

}  // namespace bhpm::solve
