// The one number formatter (util/number_format.h): each form against printf's.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "util/number_format.h"

using namespace bhpm::util;

TEST(NumberFormat, significant_digits_signed_fixed_and_scientific_forms) {
  EXPECT_EQ(format_significant(0.1234567, 4), "0.1235");
  EXPECT_EQ(format_significant(1234567.0, 10), "1234567");
  EXPECT_EQ(format_significant(1e-7, 10), "1e-07");
  EXPECT_EQ(format_signed(0.1), "+0.1");
  EXPECT_EQ(format_signed(-0.98765), "-0.9877");
  EXPECT_EQ(format_fixed(48.66, 1), "48.7");
  EXPECT_EQ(format_scientific(0.00125, 3), "1.250e-03");
}

TEST(NumberFormat, report_numbers_keep_whole_counts_and_mark_non_finite_values) {
  EXPECT_EQ(format_number(20100), "20100");
  EXPECT_EQ(format_number(0.012345), "0.01235");
  EXPECT_EQ(format_number(std::nan("")), "n/a");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "n/a");
  EXPECT_EQ(format_percent(0.4866), "48.7 %");
  EXPECT_EQ(format_percent(std::nan("")), "n/a");
}
