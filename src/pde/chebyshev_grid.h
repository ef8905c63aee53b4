#pragma once
/// Chebyshev-Gauss-Lobatto points on an interval [a, b] and spectral calculus on them: the
/// grid of the bounded-domain solver (pde/bounded_solve.h; docs/boundary-conditions.md).
///
/// Points x_j = (a + b)/2 - (b - a)/2 cos(pi j / n), j = 0..n, ascending from x_0 = a to
/// x_n = b. The first differentiation matrix is Trefethen's ("Spectral Methods in MATLAB",
/// program cheb) scaled by 2 / (b - a); D^(m) = (D^(1))^m with each row's diagonal entry
/// reset to minus the sum of its other entries, so every D^(m), m >= 1, maps constants to 0
/// exactly (Baltensperger and Trummer 2003). d^m u/dx^m = D^(m) u is exact for polynomials
/// of degree <= n.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace bhpm::pde {

class ChebyshevGrid {
 public:
  /// Throws std::invalid_argument unless a < b (both finite) and intervals n >= 2.
  ChebyshevGrid(double a, double b, std::int64_t intervals);

  double a() const { return a_; }
  double b() const { return b_; }
  /// n + 1.
  std::int64_t points() const { return intervals_ + 1; }
  /// x_j [n+1], double, ascending.
  const at::Tensor& x() const { return x_; }
  /// D^(order) [n+1, n+1], double (order 0: the identity).
  at::Tensor differentiation_matrix(int order) const;
  /// The barycentric interpolation matrix [P, n+1] from values at x() to `points` [P]
  /// (Berrut and Trefethen 2004): exact for polynomials of degree <= n.
  at::Tensor interpolation_matrix(const at::Tensor& points) const;

 private:
  double a_, b_;
  std::int64_t intervals_;
  at::Tensor x_;
  at::Tensor first_derivative_;  ///< D^(1)
};

}  // namespace bhpm::pde
