// Ensemble statistics read at scattered points of a window: exact for a field that is a
// polynomial of degree <= n in x and linear in t; points outside the window refused.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

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
