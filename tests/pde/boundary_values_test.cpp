// Boundary data g(t): an expression in t; a CSV time series interpolated by cubic Hermite
// pieces (exact on a quadratic, third-order accurate on a smooth series),
// and the series the solver must refuse: one that does not cover the horizon, times that do
// not increase, a missing column. And conditions as users write them ("2 u + u_x = 1",
// "u = walls.csv:left"), with the texts that are refused.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "pde/boundary_condition_text.h"
#include "pde/boundary_values.h"
#include "pde/expression.h"
#include "support/text_file.h"

using namespace bhpm::pde;
using bhpm::testing_support::write_text_file;
using ::testing::HasSubstr;

namespace {

/// A CSV with columns t and value: g at t = 0, h, .., t_end.
std::string series_file(const std::string& name, double t_end, double h, double (*g)(double)) {
  std::ostringstream text;
  text.precision(17);
  text << "t,value\n";
  for (int k = 0; k * h <= t_end + 1e-12; ++k) text << k * h << "," << g(k * h) << "\n";
  return write_text_file(name, text.str());
}

}  // namespace

TEST(BoundaryValues, an_expression_in_t) {
  const BoundaryValue g = expression_boundary_value("0.5*sin(pi*t)", "boundary.left");
  EXPECT_NEAR(g(0.5), 0.5, 1e-15);
  EXPECT_THROW(expression_boundary_value("sin(x)", "boundary.left"), ExpressionError);
}

TEST(BoundaryValues, a_series_is_interpolated_to_third_order) {
  const auto quadratic = [](double t) { return 1.0 - 2.0 * t + 3.0 * t * t; };
  const BoundaryValue exact_on_quadratic =
      series_boundary_value(series_file("quadratic.csv", 2.0, 0.25, +quadratic), "value", 2.0, "f");
  for (double t : {0.0, 0.1, 0.6, 1.37, 1.99})
    EXPECT_NEAR(exact_on_quadratic(t), quadratic(t), 1e-12) << "t = " << t;
  const auto smooth = [](double t) { return std::sin(3.0 * t); };
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    const double h = i == 0 ? 0.1 : 0.05;
    const BoundaryValue g =
        series_boundary_value(series_file("sine.csv", 2.0, h, +smooth), "value", 2.0, "f");
    errors[i] = 0.0;
    for (double t = 0.3; t < 1.7; t += 0.0137)
      errors[i] = std::max(errors[i], std::abs(g(t) - smooth(t)));
  }
  EXPECT_LT(errors[0], 1e-3);
  // Interior error O(h^3) from the centred slopes: halving h divides it by about 8.
  EXPECT_GT(errors[0] / errors[1], 6.0);
}

TEST(BoundaryValues, a_series_that_misses_the_horizon_or_is_unordered_is_refused) {
  const auto one = [](double) { return 1.0; };
  const std::string short_series = series_file("short.csv", 1.0, 0.5, +one);
  EXPECT_THAT([&] { series_boundary_value(short_series, "value", 2.0, "boundary.right"); },
              ::testing::ThrowsMessage<std::invalid_argument>(
                  HasSubstr("covers t in [0, 1]; it must cover [0, 2]")));
  const std::string unordered = write_text_file("unordered.csv", "t,value\n0,1\n1,2\n0.5,3\n2,4\n");
  EXPECT_THAT([&] { series_boundary_value(unordered, "value", 2.0, "boundary.right"); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("must increase strictly")));
  EXPECT_THAT(
      [&] { series_boundary_value(short_series, "u", 1.0, "boundary.right"); },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("needs the columns t and u")));
}

TEST(BoundaryConditionText, reads_the_combination_and_the_data) {
  const BoundaryCondition robin = parse_boundary_condition("2 u + u_x = 1", 1.0, "", "domain.left");
  EXPECT_EQ(robin.weights, (std::vector<double>{2.0, 1.0}));
  EXPECT_EQ(robin.describe(), "2 u + u_x = 1");
  EXPECT_EQ(robin.value(0.3), 1.0);
  const BoundaryCondition mixed =
      parse_boundary_condition("-0.5*u_xx + u - 1e-1u_xx = 0.5*sin(pi*t)", 1.0, "", "f");
  EXPECT_EQ(mixed.weights, (std::vector<double>{1.0, 0.0, -0.6}));
  EXPECT_NEAR(mixed.value(1.0 / 3.0), 0.5 * std::sin(std::acos(-1.0) / 3.0), 1e-15);
  EXPECT_EQ(parse_boundary_condition("u_xxx=0", 1.0, "", "f").order(), 3);
  // A right side PATH.csv:COLUMN is a series, its relative path taken from base_dir.
  const auto quadratic = [](double t) { return t * t; };
  series_file("walls.csv", 2.0, 0.25, +quadratic);
  const BoundaryCondition measured =
      parse_boundary_condition("u = walls.csv:value", 2.0, ::testing::TempDir(), "f");
  EXPECT_NEAR(measured.value(1.3), 1.69, 1e-12);
  EXPECT_EQ(measured.describe(), "u = walls.csv:value");
}

TEST(BoundaryConditionText, refuses_what_is_not_a_condition_naming_the_field) {
  const auto error = [](const std::string& text, double t_end = 1.0) {
    try {
      parse_boundary_condition(text, t_end, ::testing::TempDir(), "sim.toml: domain.right");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << "accepted: " << text;
    return std::string();
  };
  EXPECT_THAT(error("u"),
              HasSubstr("sim.toml: domain.right: \"u\": a condition reads LEFT = DATA"));
  for (const char* left : {"ux = 0", "u + = 0", "u u_x = 0", "u_x - u_x = 0", "v = 0"})
    EXPECT_THAT(error(left), HasSubstr("the left side must be a combination of u, u_x")) << left;
  EXPECT_THAT(error("u = "), HasSubstr("the boundary data after '=' is empty"));
  EXPECT_THAT(error("u = sin(x)"), HasSubstr("domain.right"));
  EXPECT_THAT(error("u = missing.csv:value"), HasSubstr("missing.csv is not a readable file"));
  const auto one = [](double) { return 1.0; };
  series_file("short_wall.csv", 1.0, 0.5, +one);
  EXPECT_THAT(error("u = short_wall.csv:value", 3.0),
              HasSubstr("covers t in [0, 1]; it must cover [0, 3]"));
}
