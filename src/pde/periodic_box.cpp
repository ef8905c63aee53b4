#include "pde/periodic_box.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace bhpm::pde {

namespace {

void check_axis(const char* axis, double min, double max, std::int64_t n) {
  const std::string name(axis);
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max))
    throw std::invalid_argument("periodic box: " + name + "_max must be > " + name +
                                "_min, both finite");
  if (n < 4 || n % 2 != 0)
    throw std::invalid_argument("periodic box: the points along " + name +
                                " must be even and >= 4 (got " + std::to_string(n) + ")");
}

/// (i k)^order with k = 2 pi index / length; odd orders zero at the Nyquist index n/2.
std::complex<double> axis_symbol(std::int64_t index, std::int64_t n, double length, int order) {
  if (order == 0) return 1.0;
  if (order % 2 == 1 && 2 * std::llabs(index) == n) return 0.0;
  return std::pow(std::complex<double>(0.0, 2.0 * M_PI * index / length), order);
}

std::vector<double> axis_points(double min, double length, std::int64_t n) {
  std::vector<double> points(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) points[j] = min + length * j / n;
  return points;
}

/// The signed row index r' of entry `mode`.
std::int64_t signed_row(std::int64_t mode, std::int64_t columns, std::int64_t ny) {
  const std::int64_t r = mode / columns;
  return r <= ny / 2 ? r : r - ny;
}

}  // namespace

PeriodicBox::PeriodicBox(double x_min, double x_max, std::int64_t nx)
    : x_min_(x_min), lx_(x_max - x_min), nx_(nx) {
  check_axis("x", x_min, x_max, nx);
}

PeriodicBox::PeriodicBox(double x_min, double x_max, std::int64_t nx, double y_min, double y_max,
                         std::int64_t ny)
    : x_min_(x_min), lx_(x_max - x_min), nx_(nx), y_min_(y_min), ly_(y_max - y_min), ny_(ny) {
  check_axis("x", x_min, x_max, nx);
  check_axis("y", y_min, y_max, ny);
}

std::vector<std::int64_t> PeriodicBox::shape() const {
  if (dimensions() == 1) return {nx_};
  return {ny_, nx_};
}

std::vector<double> PeriodicBox::x() const { return axis_points(x_min_, lx_, nx_); }

std::vector<double> PeriodicBox::y() const {
  if (dimensions() == 1) return {y_min_};
  return axis_points(y_min_, ly_, ny_);
}

double PeriodicBox::kx(std::int64_t mode) const {
  return 2.0 * M_PI * (mode % spectrum_columns()) / lx_;
}

double PeriodicBox::ky(std::int64_t mode) const {
  if (dimensions() == 1) return 0.0;
  return 2.0 * M_PI * signed_row(mode, spectrum_columns(), ny_) / ly_;
}

std::complex<double> PeriodicBox::partial_symbol(std::int64_t mode, int x_order,
                                                 int y_order) const {
  const std::int64_t c = mode % spectrum_columns();
  const std::int64_t r = signed_row(mode, spectrum_columns(), ny_);
  return axis_symbol(c, nx_, lx_, x_order) *
         (y_order > 0 ? axis_symbol(r, ny_, ly_, y_order) : 1.0);
}

bool PeriodicBox::below_two_thirds(std::int64_t mode) const {
  const std::int64_t c = mode % spectrum_columns();
  const std::int64_t r = signed_row(mode, spectrum_columns(), ny_);
  return 3 * c <= nx_ && (dimensions() == 1 || 3 * std::llabs(r) <= ny_);
}

}  // namespace bhpm::pde
