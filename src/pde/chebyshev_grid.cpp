#include "pde/chebyshev_grid.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace bhpm::pde {

namespace {

/// Barycentric weights of the Chebyshev-Gauss-Lobatto points: (-1)^j, halved at both ends
/// (up to a common factor, which cancels).
std::vector<double> barycentric_weights(std::int64_t n) {
  std::vector<double> w(static_cast<std::size_t>(n + 1));
  for (std::int64_t j = 0; j <= n; ++j)
    w[j] = ((j % 2 == 0) ? 1.0 : -1.0) * ((j == 0 || j == n) ? 0.5 : 1.0);
  return w;
}

/// Sets each row's diagonal entry to minus the sum of its other entries.
void negative_sum_diagonal(at::Tensor& d) {
  d.diagonal().zero_();
  d.diagonal().copy_(-d.sum(1));
}

}  // namespace

ChebyshevGrid::ChebyshevGrid(double a, double b, std::int64_t intervals)
    : a_(a), b_(b), intervals_(intervals) {
  if (!std::isfinite(a) || !std::isfinite(b) || !(b > a))
    throw std::invalid_argument("Chebyshev grid: the interval [a, b] needs finite a < b (got [" +
                                std::to_string(a) + ", " + std::to_string(b) + "])");
  if (intervals < 2)
    throw std::invalid_argument("Chebyshev grid: needs n >= 2 intervals (got " +
                                std::to_string(intervals) + ")");
  const std::int64_t n = intervals;
  const double pi = std::acos(-1.0);
  x_ = at::empty({n + 1}, at::kDouble);
  auto xs = x_.accessor<double, 1>();
  for (std::int64_t j = 0; j <= n; ++j)
    xs[j] = 0.5 * (a + b) -
            0.5 * (b - a) * std::cos(pi * static_cast<double>(j) / static_cast<double>(n));
  xs[0] = a;
  xs[n] = b;
  // D_ij = (w_j / w_i) / (x_i - x_j) for i != j, with the barycentric weights w: the
  // same matrix as Trefethen's cheb, written on the ascending points of [a, b].
  const std::vector<double> w = barycentric_weights(n);
  first_derivative_ = at::zeros({n + 1, n + 1}, at::kDouble);
  auto d = first_derivative_.accessor<double, 2>();
  for (std::int64_t i = 0; i <= n; ++i)
    for (std::int64_t j = 0; j <= n; ++j)
      if (i != j) d[i][j] = (w[j] / w[i]) / (xs[i] - xs[j]);
  negative_sum_diagonal(first_derivative_);
}

at::Tensor ChebyshevGrid::differentiation_matrix(int order) const {
  if (order < 0) throw std::invalid_argument("Chebyshev grid: derivative order must be >= 0");
  if (order == 0) return at::eye(points(), at::kDouble);
  at::Tensor d = first_derivative_.clone();
  for (int m = 2; m <= order; ++m) {
    d = at::matmul(first_derivative_, d);
    negative_sum_diagonal(d);
  }
  return d;
}

at::Tensor ChebyshevGrid::interpolation_matrix(const at::Tensor& points) const {
  const at::Tensor p = points.to(at::kDouble).contiguous();
  if (p.dim() != 1) throw std::invalid_argument("Chebyshev grid: interpolation points must be [P]");
  const std::vector<double> w = barycentric_weights(intervals_);
  const at::Tensor weights = at::tensor(w, at::kDouble);
  at::Tensor difference = p.unsqueeze(1) - x_.unsqueeze(0);  // [P, n+1]
  const at::Tensor on_node = difference == 0.0;
  at::Tensor terms = weights / at::where(on_node, at::ones_like(difference), difference);
  at::Tensor matrix = terms / terms.sum(1, true);
  // A point on a node takes that node's value exactly.
  const at::Tensor hits = on_node.any(1);
  return at::where(hits.unsqueeze(1), on_node.to(at::kDouble), matrix);
}

}  // namespace bhpm::pde
