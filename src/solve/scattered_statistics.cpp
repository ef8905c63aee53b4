#include "solve/scattered_statistics.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace bhpm::solve {

namespace {

/// field [T, n+1] at the points: rows of the x-interpolation matrix [P, n+1] against the
/// two output times around each point, weighted linearly.
at::Tensor at_points(const at::Tensor& field, const at::Tensor& x_weights, const at::Tensor& below,
                     const at::Tensor& fraction) {
  const at::Tensor before = (field.index_select(0, below) * x_weights).sum(1);
  const at::Tensor after = (field.index_select(0, below + 1) * x_weights).sum(1);
  return ((1.0 - fraction) * before + fraction * after).unsqueeze(0);
}

}  // namespace

EnsembleStatistics statistics_at_points(const EnsembleStatistics& statistics,
                                        const pde::ChebyshevGrid& grid, const at::Tensor& times,
                                        const at::Tensor& x, const at::Tensor& t) {
  const std::int64_t count = times.size(0);
  if (count < 2 || statistics.mean.dim() != 2 || statistics.mean.size(0) != count ||
      statistics.mean.size(1) != grid.points() || x.sizes() != t.sizes() || x.dim() != 1)
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
  const at::Tensor fraction = position - below.to(at::kDouble);
  const at::Tensor x_weights = grid.interpolation_matrix(x.clamp(grid.a(), grid.b()));
  EnsembleStatistics result;
  result.mean = at_points(statistics.mean, x_weights, below, fraction);
  result.standard_deviation = at_points(statistics.standard_deviation, x_weights, below, fraction);
  result.band_lower = at_points(statistics.band_lower, x_weights, below, fraction);
  result.band_upper = at_points(statistics.band_upper, x_weights, below, fraction);
  result.members = statistics.members;
  return result;
}

}  // namespace bhpm::solve
