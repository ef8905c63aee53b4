// An initial condition from samples (pde/sampled_initial_condition.h): second-order
// convergence of the periodic piecewise-linear interpolation, exact values at samples on
// grid points, the period boundary, and the refusals (not periodic, outside the domain,
// repeated x, too few samples); on a bounded interval, third-order convergence at its
// Chebyshev points and samples that must reach both ends.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "pde/sampled_initial_condition.h"
#include "support/error_message.h"

using testing::HasSubstr;

namespace {

const double kPi = std::acos(-1.0);

/// max |interpolant - u| on a 256-point grid of [0, 2 pi) from m random samples of
/// u = sin(x) + 0.5 cos(2 x) (sorted uniform points, shuffled order).
double interpolation_error(int m) {
  const bhpm::pde::PeriodicGrid grid(0.0, 2 * kPi, 256);
  std::vector<double> x, u;
  for (int i = 0; i < m; ++i) {
    const double xi = (i + 0.5 + 0.3 * std::sin(7.0 * i)) * 2 * kPi / m;  // irregular spacing
    x.push_back(xi);
    u.push_back(std::sin(xi) + 0.5 * std::cos(2 * xi));
  }
  std::swap(x[0], x[m / 2]);
  std::swap(u[0], u[m / 2]);
  const at::Tensor u0 = bhpm::pde::interpolate_periodic(grid, x, u, "samples");
  const at::Tensor exact = at::sin(grid.x()) + 0.5 * at::cos(2 * grid.x());
  return (u0 - exact).abs().max().item<double>();
}

/// max |interpolant - u| over the 64 x 48 grid of [0, 2 pi) x [-1, 1) from an m x m grid of
/// samples (irregular in x, shifted in y, rows in a shuffled order) of the fields
/// u = sin(x) cos(pi y) and v = 2 u, written as a CSV with columns y, v, x, u.
double plane_interpolation_error(int m) {
  const bhpm::pde::PeriodicBox box(0.0, 2 * kPi, 64, -1.0, 1.0, 48);
  const std::string path = testing::TempDir() + "plane-" + std::to_string(m) + ".csv";
  std::ofstream out(path);
  out.precision(17);
  out << "y,v,x,u\n";
  for (int k = 0; k < m * m; ++k) {
    const int i = (k * 7) % m, j = k / m;  // x index shuffled within each row
    const double x = (i + 0.5 + 0.3 * std::sin(7.0 * i)) * 2 * kPi / m;
    const double y = -1.0 + (j + 0.25) * 2.0 / m;
    const double u = std::sin(x) * std::cos(kPi * y);
    out << y << "," << 2 * u << "," << x << "," << u << "\n";
  }
  out.close();
  const std::vector<double> u0 =
      bhpm::pde::system_initial_condition_from_csv(box, {"u", "v"}, path);
  double error = 0.0;
  for (std::int64_t r = 0; r < 48; ++r)
    for (std::int64_t c = 0; c < 64; ++c) {
      const double exact = std::sin(c * 2 * kPi / 64) * std::cos(kPi * (-1.0 + r * 2.0 / 48));
      const std::size_t at = static_cast<std::size_t>(r * 64 + c);
      error = std::max({error, std::abs(u0[at] - exact), std::abs(u0[64 * 48 + at] - 2 * exact)});
    }
  return error;
}

}  // namespace

TEST(SampledInitialCondition, on_a_plane_converges_at_second_order_and_needs_a_grid) {
  const double coarse = plane_interpolation_error(16), fine = plane_interpolation_error(32);
  EXPECT_LT(coarse, 0.1);
  EXPECT_NEAR(std::log2(coarse / fine), 2.0, 0.35);
  const bhpm::pde::PeriodicBox box(0.0, 1.0, 8, 0.0, 1.0, 8);
  const std::string holes = testing::TempDir() + "holes.csv";
  std::ofstream(holes) << "x,y,u\n0,0,1\n0.5,0,2\n0,0.5,3\n";
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [&] { bhpm::pde::system_initial_condition_from_csv(box, {"u"}, holes); }),
              HasSubstr("holes.csv: the samples are not a grid: 2 values of x and 2 of y make 4 "
                        "pairs, the file has 3 rows"));
  const std::string twice = testing::TempDir() + "twice.csv";
  std::ofstream(twice) << "x,y,u\n0,0,1\n0.5,0,2\n0,0.5,3\n0,0,4\n";
  EXPECT_THAT(bhpm::testing_support::error_message<std::exception>(
                  [&] { bhpm::pde::system_initial_condition_from_csv(box, {"u"}, twice); }),
              HasSubstr("twice.csv: two samples at (x, y) = (0, 0)"));
}

TEST(SampledInitialCondition, converges_at_second_order) {
  const double coarse = interpolation_error(32), fine = interpolation_error(64);
  EXPECT_LT(coarse, 0.03);
  EXPECT_NEAR(std::log2(coarse / fine), 2.0, 0.35);
}

TEST(SampledInitialCondition, keeps_samples_on_grid_points_and_wraps_the_period) {
  const bhpm::pde::PeriodicGrid grid(-1.0, 1.0, 8);  // x = -1, -0.75, ..., 0.75
  // Samples u(-1) = 0 and u(0.5) = 2: slope 4/3 over [-1, 0.5], then -4 across the wrap.
  const at::Tensor u0 = bhpm::pde::interpolate_periodic(grid, {0.5, -1.0}, {2.0, 0.0}, "two");
  const std::vector<double> expected = {0.0, 1 / 3.0, 2 / 3.0, 1.0, 4 / 3.0, 5 / 3.0, 2.0, 1.0};
  for (int j = 0; j < 8; ++j) EXPECT_NEAR(u0[j].item<double>(), expected[j], 1e-14) << j;
  // A sample at x_max stands for x_min.
  const at::Tensor same = bhpm::pde::interpolate_periodic(grid, {0.5, 1.0}, {2.0, 0.0}, "two");
  EXPECT_TRUE(at::allclose(same, u0));
}

TEST(SampledInitialCondition, refuses_what_is_not_one_period_of_samples) {
  const bhpm::pde::PeriodicGrid grid(0.0, 1.0, 16);
  std::vector<double> x, ramp;
  for (int i = 0; i < 20; ++i) x.push_back(i / 20.0), ramp.push_back(i / 20.0);
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>(
                  [&] { bhpm::pde::interpolate_periodic(grid, x, ramp, "ramp.csv"); }),
              HasSubstr("ramp.csv: u0 is not periodic on [0, 1) (the solvers are periodic): it "
                        "jumps from u = 0.95 at x = 0.95 to u = 0 at x = 0"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::pde::interpolate_periodic(grid, {0.0, 1.5}, {1, 2}, "far");
              }),
              HasSubstr("far: x = 1.5 lies outside the domain [0, 1]"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::pde::interpolate_periodic(grid, {0.0, 1.0, 0.5}, {1, 1, 2}, "end");
              }),
              HasSubstr("end: two samples at x = 0 (x_max is x_min on a period)"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>(
                  [&] { bhpm::pde::interpolate_periodic(grid, {0.5}, {1}, "one"); }),
              HasSubstr("at least 2 samples"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::pde::interpolate_periodic(grid, {0.1, 0.5}, {NAN, 1}, "nan");
              }),
              HasSubstr("nan: sample 0 is NaN or Inf"));
  const std::string path = testing::TempDir() + "u0.csv";
  std::ofstream(path) << "x,value\n0,1\n0.5,2\n";
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>(
                  [&] { bhpm::pde::initial_condition_from_csv(grid, path); }),
              HasSubstr("u0.csv: line 1: no column 'u'"));
}

TEST(SampledInitialCondition, on_an_interval_converges_at_third_order_and_must_reach_both_ends) {
  // u = exp(x) sin(3 x) on [-1, 2] from m irregular samples (both ends included), read at
  // the Chebyshev points: the cubic Hermite interpolant's error is O(h^3).
  const bhpm::pde::ChebyshevGrid grid(-1.0, 2.0, 40);
  const auto exact = [](double x) { return std::exp(x) * std::sin(3.0 * x); };
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    const int m = i == 0 ? 40 : 80;
    std::vector<double> x, u;
    for (int j = 0; j <= m; ++j) {
      const double s = (j + (j > 0 && j < m ? 0.3 * std::sin(5.0 * j) : 0.0)) / m;
      x.push_back(-1.0 + 3.0 * s);
      u.push_back(exact(x.back()));
    }
    std::swap(x[1], x[m - 1]);  // any order
    std::swap(u[1], u[m - 1]);
    const at::Tensor u0 = bhpm::pde::interpolate_on_interval(grid, x, u, "samples");
    errors[i] = 0.0;
    for (std::int64_t j = 0; j < grid.points(); ++j)
      errors[i] =
          std::max(errors[i], std::abs(u0[j].item<double>() - exact(grid.x()[j].item<double>())));
  }
  EXPECT_LT(errors[0], 5e-3);  // of max |u| = 7
  EXPECT_GT(std::log2(errors[0] / errors[1]), 2.5) << errors[0] << " " << errors[1];
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::pde::interpolate_on_interval(grid, {-1.0, 0.5, 1.9}, {0, 1, 2}, "short");
              }),
              HasSubstr("short: the samples cover x in [-1, 1.9]; on a bounded domain they must "
                        "cover [-1, 2]"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::pde::interpolate_on_interval(grid, {-1.0, 2.0, 2.0}, {0, 1, 2}, "twice");
              }),
              HasSubstr("twice: two samples at x = 2"));
}
