// Ensemble statistics read at scattered points of a window: exact for a field that is a
// polynomial of degree <= n in x and linear in t; points outside the window refused; the
// comparison with noisy measurements, whose band adds the noise in quadrature.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

#include "solve/scattered_statistics.h"

using namespace bhpm;

TEST(ScatteredStatistics, read_a_polynomial_in_x_linear_in_t_exactly) {
  const pde::ChebyshevGrid grid(-1.0, 3.0, 8);
  const at::Tensor times = at::linspace(0.0, 2.0, 5, at::kDouble);
  // f(x, t) = (1 + t) x^3 - 2 x + t on the grid at every output time.
  const auto field = [](const at::Tensor& x, const at::Tensor& t) {
    return (1.0 + t) * x.pow(3) - 2.0 * x + t;
  };
  solve::EnsembleStatistics statistics;
  statistics.mean = field(grid.x().unsqueeze(0), times.unsqueeze(1));
  statistics.standard_deviation = at::ones_like(statistics.mean);
  statistics.band_lower = statistics.mean - 1.0;
  statistics.band_upper = statistics.mean + 1.0;
  const at::Tensor x = at::tensor({-1.0, 0.3, 2.9, 3.0}, at::kDouble);
  const at::Tensor t = at::tensor({0.0, 0.77, 1.99, 2.0}, at::kDouble);
  const solve::EnsembleStatistics at_points =
      solve::statistics_at_points(statistics, grid, times, x, t);
  ASSERT_EQ(at_points.mean.sizes(), (at::IntArrayRef{1, 4}));
  EXPECT_LT((at_points.mean[0] - field(x, t)).abs().max().item<double>(), 1e-12);
  EXPECT_LT((at_points.band_upper[0] - field(x, t) - 1.0).abs().max().item<double>(), 1e-12);
  EXPECT_THROW(solve::statistics_at_points(statistics, grid, times, at::tensor({3.5}, at::kDouble),
                                           at::tensor({1.0}, at::kDouble)),
               std::invalid_argument);
}

// A constant mean 0 with band half-width 1.96 * 0.3 = 0.588 and measurements at 0.6, 0.7
// and 0.8: none inside the band of u; with noise sd 0.4 the band of a measurement has
// half-width 1.96 * 0.5 = 0.98, which holds all three; with sd 0.2, 1.96 * sqrt(0.13) =
// 0.7067, 0.6 and 0.7; with sd 0.1, 1.96 * sqrt(0.1) = 0.6198, only 0.6.
TEST(ScatteredStatistics, the_band_of_a_measurement_adds_its_noise_in_quadrature) {
  const pde::ChebyshevGrid grid(0.0, 1.0, 4);
  const at::Tensor times = at::linspace(0.0, 1.0, 3, at::kDouble);
  solve::EnsembleStatistics statistics;
  statistics.mean = at::zeros({3, 5}, at::kDouble);
  statistics.standard_deviation = at::full({3, 5}, 0.3, at::kDouble);
  statistics.band_lower = statistics.mean - 1.96 * 0.3;
  statistics.band_upper = statistics.mean + 1.96 * 0.3;
  const at::Tensor x = at::tensor({0.1, 0.5, 0.9}, at::kDouble);
  const at::Tensor t = at::tensor({0.2, 0.5, 1.0}, at::kDouble);
  const at::Tensor u = at::tensor({0.6, 0.7, 0.8}, at::kDouble);
  const auto with_noise = [&](double sd) {
    return solve::compare_with_measurements(statistics, grid, times, x, t, u,
                                            at::full({3}, sd * sd, at::kDouble));
  };
  const solve::MeasurementComparison wide = with_noise(0.4);
  EXPECT_EQ(wide.points, 3);
  EXPECT_DOUBLE_EQ(wide.of_u.band_coverage, 0.0);
  EXPECT_NEAR(wide.of_u.rmse, std::sqrt((0.36 + 0.49 + 0.64) / 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(wide.measurement_band_coverage, 1.0);
  EXPECT_NEAR(with_noise(0.2).measurement_band_coverage, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(with_noise(0.1).measurement_band_coverage, 1.0 / 3.0, 1e-12);
}
