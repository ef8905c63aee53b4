// The monomial library of distilled equations: its size C(D + d, d), its order and names,
// its values against products written out, and the degrees it refuses.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pde/term_library.h"
#include "support/error_message.h"

using bhpm::pde::make_term_library;
using bhpm::pde::TermLibrary;
using bhpm::testing_support::error_message;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TermLibrary, holds_every_monomial_up_to_the_degree_in_a_fixed_order) {
  const TermLibrary library = make_term_library({"u", "u_x", "u_xx"}, 2);
  EXPECT_THAT(library.names, ElementsAre("1", "u", "u_x", "u_xx", "u^2", "u*u_x", "u*u_xx", "u_x^2",
                                         "u_x*u_xx", "u_xx^2"));
  EXPECT_EQ(make_term_library({"u", "u_x", "u_xx"}, 3).size(), 20);            // C(6, 3)
  EXPECT_EQ(make_term_library({"u", "u_x", "u_xx", "u_xxx"}, 5).size(), 126);  // C(9, 5)
  EXPECT_EQ(library.find("u*u_x"), 5);
  EXPECT_EQ(library.find("u_x*u"), -1);
}

TEST(TermLibrary, evaluates_each_monomial_as_the_product_of_its_powers) {
  const TermLibrary library = make_term_library({"u", "u_x"}, 3);
  const at::Tensor v = at::tensor({0.5, -2.0, 3.0, 0.25}, at::kDouble).reshape({2, 2});
  const at::Tensor theta = library.evaluate(v);
  ASSERT_EQ(theta.size(0), 2);
  ASSERT_EQ(theta.size(1), library.size());
  for (std::int64_t p = 0; p < 2; ++p) {
    const double u = v[p][0].item<double>(), ux = v[p][1].item<double>();
    EXPECT_DOUBLE_EQ(theta[p][library.find("1")].item<double>(), 1.0);
    EXPECT_DOUBLE_EQ(theta[p][library.find("u^2*u_x")].item<double>(), u * u * ux);
    EXPECT_DOUBLE_EQ(theta[p][library.find("u_x^3")].item<double>(), ux * ux * ux);
    EXPECT_DOUBLE_EQ(theta[p][library.find("u*u_x")].item<double>(), u * ux);
  }
  EXPECT_THAT(error_message([&] {
                library.evaluate(at::zeros({3, 3}, at::kDouble));
              }),
              HasSubstr("v must be [P, 2]"));
}

TEST(TermLibrary, refuses_a_degree_outside_one_to_five_and_no_variables) {
  EXPECT_THAT(error_message([] { make_term_library({"u"}, 0); }),
              HasSubstr("degree must be in [1, 5] (got 0)"));
  EXPECT_THAT(error_message([] { make_term_library({"u"}, 6); }),
              HasSubstr("degree must be in [1, 5] (got 6)"));
  EXPECT_THAT(error_message([] { make_term_library({}, 2); }), HasSubstr("at least one variable"));
}
