#pragma once
/// Uniform periodic grid on [x_min, x_max) and Fourier (rfft) spectral calculus on it.
///
/// Points x_j = x_min + j L / n, j = 0..n-1, L = x_max - x_min. A real field u [..., n]
/// has n/2 + 1 rfft coefficients with wavenumbers k_j = 2 pi j / L. The derivative
/// d^m/dx^m is multiplication by (i k)^m; for odd m the Nyquist coefficient is zeroed,
/// so derivatives of real fields stay real and are exact on trigonometric polynomials
/// of degree below n/2.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace bhpm::pde {

class PeriodicGrid {
 public:
  /// Throws std::invalid_argument unless x_max > x_min and points is even and >= 4.
  /// The tensors below are made on `device` (docs/parallel.md, "CUDA").
  PeriodicGrid(double x_min, double x_max, std::int64_t points, at::Device device = at::kCPU);

  /// The same grid with its tensors on `device`.
  PeriodicGrid on(at::Device device) const;
  at::Device device() const { return device_; }
  /// double on device().
  at::TensorOptions real_options() const { return at::TensorOptions(at::kDouble).device(device_); }

  double x_min() const { return x_min_; }
  double x_max() const { return x_min_ + length_; }
  double length() const { return length_; }
  std::int64_t points() const { return points_; }
  /// Number of rfft coefficients, n/2 + 1.
  std::int64_t modes() const { return points_ / 2 + 1; }

  /// Grid points [n], double.
  at::Tensor x() const;
  /// Wavenumbers 2 pi j / L [n/2+1], double.
  at::Tensor wavenumbers() const;
  /// (i k)^order [n/2+1], complex double; Nyquist zero for odd orders.
  at::Tensor derivative_symbol(int order) const;
  /// sum_m coefficients[m] (i k)^m [n/2+1], complex double: the Fourier symbol of the
  /// linear operator sum_m c_m d^m/dx^m.
  at::Tensor linear_symbol(const std::vector<double>& coefficients) const;
  /// 2/3-rule mask [n/2+1], double: 1 for j <= n/3, else 0.
  at::Tensor two_thirds_mask() const;

  /// u [..., n] real -> [..., n/2+1] complex.
  at::Tensor to_spectral(const at::Tensor& u) const;
  /// u_hat [..., n/2+1] complex -> [..., n] real.
  at::Tensor to_physical(const at::Tensor& u_hat) const;
  /// d^order u / dx^order for u [..., n].
  at::Tensor derivative(const at::Tensor& u, int order) const;
  /// (u, u_x, ..., d^max_order u/dx^max_order) stacked [max_order+1, ..., n] from u_hat.
  at::Tensor derivatives_from_spectral(const at::Tensor& u_hat, int max_order) const;

 private:
  double x_min_;
  double length_;
  std::int64_t points_;
  at::Device device_;
};

}  // namespace bhpm::pde
