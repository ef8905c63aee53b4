#include "solve/scattered_statistics.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace bhpm::solve {

namespace {

/// Where points fall on a window's output grid: the rows of the x-interpolation matrix
/// [P, n+1], the output time below each point [P] and its fraction of the way to the next.
struct PointWeights {
  at::Tensor x_weights, below, fraction;
};

PointWeights point_weights(const pde::ChebyshevGrid& grid, const at::Tensor& times,
                           const at::Tensor& x, const at::Tensor& t) {
  const std::int64_t count = times.size(0);
  if (count < 2 || x.sizes() != t.sizes() || x.dim() != 1)
    throw std::invalid_argument("statistics at points: shapes do not fit the window's grid");
  const double first = times[0].item<double>(), last = times[count - 1].item<double>();
  const double slack = 1e-9 * (last - first);
  if ((x < grid.a() - slack).any().item<bool>() || (x > grid.b() + slack).any().item<bool>() ||
      (t < first - slack).any().item<bool>() || (t > last + slack).any().item<bool>())
    throw std::invalid_argument("statistics at points: a point lies outside the window");
  const double step = (last - first) / static_cast<double>(count - 1);
  const at::Tensor position =
      ((t.to(at::kDouble) - first) / step).clamp(0.0, static_cast<double>(count - 1));
  const at::Tensor below = position.floor().clamp_max(static_cast<double>(count - 2)).to(at::kLong);
  return {grid.interpolation_matrix(x.clamp(grid.a(), grid.b())), below,
          position - below.to(at::kDouble)};
}

/// fields [..., T, n+1] at the points [..., P]: each row interpolated in x, the two output
/// times around each point weighted linearly.
at::Tensor at_points(const at::Tensor& fields, const PointWeights& w) {
  const at::Tensor before = (fields.index_select(-2, w.below) * w.x_weights).sum(-1);
  const at::Tensor after = (fields.index_select(-2, w.below + 1) * w.x_weights).sum(-1);
  return (1.0 - w.fraction) * before + w.fraction * after;
}

}  // namespace

at::Tensor values_at_points(const at::Tensor& fields, const pde::ChebyshevGrid& grid,
                            const at::Tensor& times, const at::Tensor& x, const at::Tensor& t) {
  if (fields.dim() < 2 || fields.size(-2) != times.size(0) || fields.size(-1) != grid.points())
    throw std::invalid_argument("values at points: fields must be [..., T, n+1] on the grid");
  return at_points(fields, point_weights(grid, times, x, t));
}

EnsembleStatistics statistics_at_points(const EnsembleStatistics& statistics,
                                        const pde::ChebyshevGrid& grid, const at::Tensor& times,
                                        const at::Tensor& x, const at::Tensor& t) {
  if (statistics.mean.dim() != 2 || statistics.mean.size(0) != times.size(0) ||
      statistics.mean.size(1) != grid.points())
    throw std::invalid_argument("statistics at points: shapes do not fit the window's grid");
  const PointWeights w = point_weights(grid, times, x, t);
  EnsembleStatistics result;
  result.mean = at_points(statistics.mean, w).unsqueeze(0);
  result.standard_deviation = at_points(statistics.standard_deviation, w).unsqueeze(0);
  result.band_lower = at_points(statistics.band_lower, w).unsqueeze(0);
  result.band_upper = at_points(statistics.band_upper, w).unsqueeze(0);
  result.members = statistics.members;
  return result;
}

MeasurementComparison compare_with_measurements(const EnsembleStatistics& statistics,
                                                const pde::ChebyshevGrid& grid,
                                                const at::Tensor& times, const at::Tensor& x,
                                                const at::Tensor& t, const at::Tensor& u,
                                                const at::Tensor& noise_variance) {
  const EnsembleStatistics at_points = statistics_at_points(statistics, grid, times, x, t);
  const at::Tensor measured = u.to(at::kDouble).unsqueeze(0);
  MeasurementComparison comparison;
  comparison.points = u.size(0);
  comparison.of_u = compare_with_truth(at_points, measured);
  const at::Tensor half_width = at_points.band_upper - at_points.mean;
  const at::Tensor widened =
      at::sqrt(half_width.square() + 1.96 * 1.96 * noise_variance.to(at::kDouble).unsqueeze(0));
  comparison.measurement_band_coverage =
      ((measured - at_points.mean).abs() <= widened).to(at::kDouble).mean().item<double>();
  return comparison;
}

}  // namespace bhpm::solve
