// Built-in and general equations, and the nonlinear terms they evaluate.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pde/equation.h"
#include "pde/expression.h"

using namespace bhpm::pde;
using testing::HasSubstr;

namespace {
Equation named(const std::string& name) {
  EquationOptions options;
  options.name = name;
  return make_equation(options);
}
}  // namespace

TEST(Equation, builtins_have_the_documented_linear_parts) {
  EXPECT_EQ(named("burgers").linear, (std::vector<double>{0, 0, 0.1}));
  EXPECT_EQ(named("kdv").linear, (std::vector<double>{0, 0, 0, -1}));
  EXPECT_EQ(named("kuramoto_sivashinsky").linear, (std::vector<double>{0, 0, -1, 0, -1}));
  EXPECT_EQ(named("heat").nonlinear, nullptr);
  EXPECT_EQ(named("kdv").order(), 3);
  EXPECT_EQ(named("kdv").describe(), "u_t = -u_xxx + (-u*u_x)");
  EXPECT_EQ(named("burgers").describe(), "u_t = 0.1 u_xx + (-u*u_x)");
  EXPECT_EQ(named("kuramoto_sivashinsky").describe(), "u_t = -u_xx - u_xxxx + (-u*u_x)");
}

TEST(Equation, advection_term_is_minus_u_u_x) {
  const at::Tensor derivatives = at::rand({2, 3, 5}, at::kDouble);
  const at::Tensor n = named("burgers").nonlinear->evaluate(derivatives);
  EXPECT_TRUE(at::allclose(n, -derivatives[0] * derivatives[1]));
}

TEST(Equation, general_expression_reads_only_the_derivatives_it_uses) {
  EquationOptions options;
  options.name = "general";
  options.linear = {0.0, 0.0, 0.1};
  options.nonlinear = "-u*u_x + 0.5*u_xxx^2";
  const Equation eq = make_equation(options);
  ASSERT_EQ(eq.nonlinear->max_derivative(), 3);
  const at::Tensor d = at::rand({4, 2, 7}, at::kDouble);
  const at::Tensor expected = -d[0] * d[1] + 0.5 * d[3] * d[3];
  EXPECT_LT((eq.nonlinear->evaluate(d) - expected).abs().max().item<double>(), 1e-15);
  EXPECT_EQ(eq.order(), 3);
}

TEST(Equation, errors_name_the_field) {
  EquationOptions options;
  options.field_names = [](const std::string& key) { return "run.toml: equation." + key; };
  options.name = "burger";
  try {
    make_equation(options);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("run.toml: equation.name: unknown equation 'burger'"));
  }
  options.name = "general";
  options.nonlinear = "-u*u_y";
  try {
    make_equation(options);
    FAIL();
  } catch (const ExpressionError& e) {
    EXPECT_THAT(e.what(), HasSubstr("run.toml: equation.nonlinear"));
    EXPECT_THAT(e.what(), HasSubstr("u_y"));
  }
  options.nonlinear = "";
  EXPECT_THROW(make_equation(options), std::invalid_argument);
  options.linear = {0.0, NAN};
  EXPECT_THROW(make_equation(options), std::invalid_argument);
}

TEST(Expression, evaluates_in_bulk_and_reports_use) {
  Expression e("a*b + pi", {"a", "b", "c"}, "test");
  const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6}, c = {0, 0, 0};
  std::vector<double> out(3);
  e.evaluate({a.data(), b.data(), c.data()}, 3, out.data());
  EXPECT_DOUBLE_EQ(out[2], 18 + M_PI);
  EXPECT_TRUE(e.uses("b"));
  EXPECT_FALSE(e.uses("c"));
}
