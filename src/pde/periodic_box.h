#pragma once
/// A periodic box of one or two space dimensions and its Fourier calculus on plain arrays:
/// [x_min, x_max) with n_x points, times [y_min, y_max) with n_y points in two dimensions.
///
/// A field on it is row-major [n_y, n_x] (n_y = 1 in one dimension): value (r, c) at
/// x_c = x_min + c L_x / n_x, y_r = y_min + r L_y / n_y. Its rfft spectrum is
/// [n_y, n_x/2+1] (pde/real_fft.h), entry (r, c) of wavenumbers k_x = 2 pi c / L_x and
/// k_y = 2 pi r' / L_y with r' = r for r <= n_y/2, else r - n_y. The partial
/// d^a/dx^a d^b/dy^b is multiplication by (i k_x)^a (i k_y)^b, with a Nyquist coefficient
/// of an odd order zeroed so that the partials of a real field stay real.

#include <complex>
#include <cstdint>
#include <vector>

namespace bhpm::pde {

class PeriodicBox {
 public:
  /// One dimension: [x_min, x_max) with nx points. Throws std::invalid_argument unless
  /// x_max > x_min and nx is even and >= 4.
  PeriodicBox(double x_min, double x_max, std::int64_t nx);
  /// Two dimensions; the same rules for y.
  PeriodicBox(double x_min, double x_max, std::int64_t nx, double y_min, double y_max,
              std::int64_t ny);

  int dimensions() const { return ny_ > 1 ? 2 : 1; }
  std::int64_t nx() const { return nx_; }
  std::int64_t ny() const { return ny_; }
  double x_min() const { return x_min_; }
  double x_max() const { return x_min_ + lx_; }
  double y_min() const { return y_min_; }
  double y_max() const { return y_min_ + ly_; }
  /// Points n_x n_y.
  std::int64_t points() const { return nx_ * ny_; }
  /// {n_x} or {n_y, n_x}: the shape of a field (pde/real_fft.h's shape).
  std::vector<std::int64_t> shape() const;
  /// Columns of the spectrum, n_x/2 + 1.
  std::int64_t spectrum_columns() const { return nx_ / 2 + 1; }
  /// Coefficients of a spectrum, n_y (n_x/2 + 1).
  std::int64_t modes() const { return ny_ * spectrum_columns(); }

  /// Coordinates x_c [n_x] and y_r [n_y] (y_min alone in one dimension).
  std::vector<double> x() const;
  std::vector<double> y() const;
  /// Wavenumbers of spectrum entry `mode` = r (n_x/2+1) + c.
  double kx(std::int64_t mode) const;
  double ky(std::int64_t mode) const;
  /// (i k_x)^a (i k_y)^b at spectrum entry `mode`, Nyquist rules above.
  std::complex<double> partial_symbol(std::int64_t mode, int x_order, int y_order) const;
  /// The 2/3 rule: whether entry `mode` keeps its value (|c| <= n_x/3 and |r'| <= n_y/3).
  bool below_two_thirds(std::int64_t mode) const;

 private:
  double x_min_, lx_;
  std::int64_t nx_;
  double y_min_ = 0.0, ly_ = 0.0;
  std::int64_t ny_ = 1;
};

}  // namespace bhpm::pde
