#include "pde/periodic_grid.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "util/number_format.h"

namespace bhpm::pde {

PeriodicGrid::PeriodicGrid(double x_min, double x_max, std::int64_t points, at::Device device)
    : x_min_(x_min), length_(x_max - x_min), points_(points), device_(device) {
  if (!(std::isfinite(x_min) && std::isfinite(x_max) && x_max > x_min))
    throw std::invalid_argument(
        "periodic grid: x_max must be finite and greater than x_min (got [" +
        util::format_significant(x_min, 6) + ", " + util::format_significant(x_max, 6) + "])");
  if (points < 4 || points % 2 != 0)
    throw std::invalid_argument("periodic grid: number of points must be even and >= 4 (got " +
                                std::to_string(points) + ")");
}

PeriodicGrid PeriodicGrid::on(at::Device device) const {
  return PeriodicGrid(x_min(), x_max(), points_, device);
}

at::Tensor PeriodicGrid::x() const {
  return x_min_ + at::arange(points_, real_options()) * (length_ / static_cast<double>(points_));
}

at::Tensor PeriodicGrid::wavenumbers() const {
  return at::arange(modes(), real_options()) * (2.0 * M_PI / length_);
}

at::Tensor PeriodicGrid::derivative_symbol(int order) const {
  if (order < 0) throw std::invalid_argument("derivative order must be >= 0");
  at::Tensor ik = at::complex(at::zeros({modes()}, real_options()), wavenumbers());
  at::Tensor symbol = ik.pow(order);
  if (order == 0) symbol = at::ones({modes()}, real_options().dtype(at::kComplexDouble));
  if (order % 2 == 1) symbol.index_put_({modes() - 1}, 0.0);
  return symbol;
}

at::Tensor PeriodicGrid::linear_symbol(const std::vector<double>& coefficients) const {
  at::Tensor symbol = at::zeros({modes()}, real_options().dtype(at::kComplexDouble));
  for (std::size_t m = 0; m < coefficients.size(); ++m)
    if (coefficients[m] != 0.0)
      symbol = symbol + coefficients[m] * derivative_symbol(static_cast<int>(m));
  return symbol;
}

at::Tensor PeriodicGrid::two_thirds_mask() const {
  at::Tensor j = at::arange(modes(), real_options());
  return (j <= static_cast<double>(points_) / 3.0).to(at::kDouble);
}

at::Tensor PeriodicGrid::to_spectral(const at::Tensor& u) const { return at::fft_rfft(u); }

at::Tensor PeriodicGrid::to_physical(const at::Tensor& u_hat) const {
  return at::fft_irfft(u_hat, points_);
}

at::Tensor PeriodicGrid::derivative(const at::Tensor& u, int order) const {
  return to_physical(to_spectral(u) * derivative_symbol(order));
}

at::Tensor PeriodicGrid::derivatives_from_spectral(const at::Tensor& u_hat, int max_order) const {
  std::vector<at::Tensor> symbols;
  for (int m = 0; m <= max_order; ++m) symbols.push_back(derivative_symbol(m));
  // [M+1, 1.., modes] broadcast against u_hat [..., modes].
  std::vector<int64_t> shape(u_hat.dim() + 1, 1);
  shape.front() = max_order + 1;
  shape.back() = modes();
  at::Tensor stacked = at::stack(symbols).reshape(shape);
  return to_physical(stacked * u_hat.unsqueeze(0));
}

}  // namespace bhpm::pde
