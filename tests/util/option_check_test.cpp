// Option rules (util/option_check.h): each check's rule and message, and how nested options
// are renamed on the way out.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "util/option_check.h"

using bhpm::util::OptionError;
using testing::HasSubstr;

namespace {

/// The OptionError that `check` throws; fails the test when it throws none.
template <typename Check>
OptionError option_error(Check check) {
  try {
    check();
  } catch (const OptionError& error) {
    return error;
  }
  ADD_FAILURE() << "no OptionError thrown";
  return OptionError("", "", "", "");
}

}  // namespace

TEST(OptionCheck, a_broken_rule_names_owner_key_rule_and_value) {
  const OptionError error =
      option_error([] { bhpm::util::require_at_least(0, 1, "predict", "samples"); });
  EXPECT_EQ(error.owner(), "predict");
  EXPECT_EQ(error.key(), "samples");
  EXPECT_EQ(error.rule(), "must be >= 1");
  EXPECT_EQ(error.value(), "0");
  EXPECT_STREQ(error.what(), "predict: samples must be >= 1 (got 0)");
}

TEST(OptionCheck, each_check_accepts_its_bound_and_refuses_beyond_it) {
  using namespace bhpm::util;
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  EXPECT_NO_THROW(require_at_least(1, 1, "o", "k"));
  EXPECT_NO_THROW(require_positive(1e-300, "o", "k"));
  EXPECT_NO_THROW(require_non_negative(0.0, "o", "k"));
  EXPECT_NO_THROW(require_above(1.0 + 1e-12, 1.0, "o", "k"));
  EXPECT_NO_THROW(require_unit_interval(0.0, "o", "k"));
  for (double bad : {0.0, -1.0, nan, inf})
    EXPECT_EQ(option_error([&] { require_positive(bad, "o", "k"); }).rule(), "must be > 0");
  for (double bad : {-1e-300, nan, inf})
    EXPECT_EQ(option_error([&] { require_non_negative(bad, "o", "k", "(0: off)"); }).rule(),
              "must be >= 0 (0: off)");
  for (double bad : {1.0, nan, inf})
    EXPECT_EQ(option_error([&] { require_above(bad, 1.0, "o", "k"); }).rule(), "must be > 1");
  for (double bad : {1.0, -1e-300, nan})
    EXPECT_EQ(option_error([&] { require_unit_interval(bad, "o", "k"); }).rule(),
              "must be in [0, 1)");
  EXPECT_EQ(option_error([&] { require_at_least(-3, 0, "o", "k"); }).value(), "-3");
}

TEST(OptionCheck, values_print_exactly_or_to_ten_digits_never_as_fixed_point) {
  EXPECT_EQ(bhpm::util::option_value(std::int64_t{1} << 40), "1099511627776");
  EXPECT_EQ(option_error([] { bhpm::util::require_above(1e-8, 1.0, "o", "k"); }).value(), "1e-08");
  EXPECT_EQ(bhpm::util::option_value(std::numeric_limits<double>::max()), "1.797693135e+308");
}

TEST(OptionCheck, nested_options_are_renamed_as_their_holder_names_them) {
  const OptionError error = option_error([] {
    bhpm::util::validate_nested("predict", "pinn.",
                                [] { bhpm::util::require_at_least(0, 1, "PINN", "iterations"); });
  });
  EXPECT_EQ(error.owner(), "predict");
  EXPECT_EQ(error.key(), "pinn.iterations");
  EXPECT_EQ(error.rule(), "must be >= 1");
  EXPECT_THAT(error.what(), HasSubstr("predict: pinn.iterations must be >= 1 (got 0)"));
}

TEST(OptionCheck, default_field_names_join_section_and_key) {
  EXPECT_EQ(bhpm::util::section_fields("equation")("nu"), "equation.nu");
}
