// Spectral calculus on the periodic grid is exact on trigonometric polynomials.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

#include "pde/periodic_grid.h"

using bhpm::pde::PeriodicGrid;

namespace {

/// u = sin(3 w x) + 0.5 cos(7 w x), w = 2 pi / L, and its m-th derivative in closed form.
at::Tensor trig_derivative(const at::Tensor& x, double length, int m) {
  const double w = 2.0 * M_PI / length;
  const double a = 3 * w, b = 7 * w;
  // d^m sin(a x) = a^m sin(a x + m pi/2), d^m cos(b x) = b^m cos(b x + m pi/2).
  return std::pow(a, m) * at::sin(a * x + m * M_PI / 2) +
         0.5 * std::pow(b, m) * at::cos(b * x + m * M_PI / 2);
}

}  // namespace

TEST(PeriodicGrid, points_cover_the_period_without_the_right_end) {
  const PeriodicGrid grid(-8.0, 8.0, 16);
  const at::Tensor x = grid.x();
  EXPECT_DOUBLE_EQ(x[0].item<double>(), -8.0);
  EXPECT_DOUBLE_EQ(x[15].item<double>(), 7.0);
  EXPECT_EQ(grid.modes(), 9);
}

TEST(PeriodicGrid, derivatives_are_exact_on_trigonometric_polynomials) {
  const PeriodicGrid grid(-3.0, 5.0, 32);
  const at::Tensor u = trig_derivative(grid.x(), grid.length(), 0);
  for (int m = 0; m <= 6; ++m) {
    const at::Tensor exact = trig_derivative(grid.x(), grid.length(), m);
    const double scale = exact.abs().max().item<double>();
    const double error = (grid.derivative(u, m) - exact).abs().max().item<double>();
    EXPECT_LT(error, 1e-13 * scale) << "order " << m;
  }
}

TEST(PeriodicGrid, stacked_derivatives_match_single_ones) {
  const PeriodicGrid grid(0.0, 2.0 * M_PI, 64);
  const at::Tensor u = at::stack({at::sin(grid.x()), at::exp(at::cos(grid.x()))});  // [2, n]
  const at::Tensor stacked = grid.derivatives_from_spectral(grid.to_spectral(u), 3);
  ASSERT_EQ(stacked.sizes(), (at::IntArrayRef{4, 2, 64}));
  for (int m = 0; m <= 3; ++m)
    EXPECT_LT((stacked[m] - grid.derivative(u, m)).abs().max().item<double>(), 1e-12);
}

TEST(PeriodicGrid, odd_derivatives_drop_the_nyquist_mode) {
  const PeriodicGrid grid(0.0, 1.0, 8);
  const at::Tensor nyquist = at::cos(M_PI * 8 * grid.x());  // alternates +1, -1
  EXPECT_LT(grid.derivative(nyquist, 1).abs().max().item<double>(), 1e-12);
  const at::Tensor second = grid.derivative(nyquist, 2);
  const double k = M_PI * 8;
  EXPECT_LT((second + k * k * nyquist).abs().max().item<double>(), 1e-9 * k * k);
}

TEST(PeriodicGrid, linear_symbol_sums_derivative_symbols) {
  const PeriodicGrid grid(-1.0, 1.0, 16);
  const at::Tensor symbol = grid.linear_symbol({0.5, 0.0, 0.1, -2.0});
  const at::Tensor expected = 0.5 * grid.derivative_symbol(0) + 0.1 * grid.derivative_symbol(2) -
                              2.0 * grid.derivative_symbol(3);
  EXPECT_LT((symbol - expected).abs().max().item<double>(), 1e-12);
}

TEST(PeriodicGrid, two_thirds_mask_keeps_low_modes) {
  const PeriodicGrid grid(0.0, 1.0, 12);
  const at::Tensor mask = grid.two_thirds_mask();
  EXPECT_EQ(mask.sum().item<double>(), 5.0);  // j = 0..4 <= 12/3
  EXPECT_EQ(mask[4].item<double>(), 1.0);
  EXPECT_EQ(mask[5].item<double>(), 0.0);
}

TEST(PeriodicGrid, rejects_bad_sizes) {
  EXPECT_THROW(PeriodicGrid(0.0, 1.0, 7), std::invalid_argument);
  EXPECT_THROW(PeriodicGrid(0.0, 1.0, 2), std::invalid_argument);
  EXPECT_THROW(PeriodicGrid(1.0, 1.0, 8), std::invalid_argument);
  EXPECT_THROW(PeriodicGrid(0.0, NAN, 8), std::invalid_argument);
}
