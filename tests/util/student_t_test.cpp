// Student's t quantiles against published table values (and the normal limit), and the
// CDF against closed forms: nu = 1 (Cauchy) and nu = 2.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "util/student_t.h"

using namespace bhpm::util;

TEST(StudentT, cdf_matches_closed_forms) {
  for (double x : {-3.0, -0.5, 0.0, 0.7, 2.0, 12.0}) {
    EXPECT_NEAR(student_t_cdf(x, 1.0), 0.5 + std::atan(x) / M_PI, 1e-10) << x;  // Cauchy
    EXPECT_NEAR(student_t_cdf(x, 2.0), 0.5 + x / (2.0 * std::sqrt(2.0 + x * x)), 1e-10) << x;
  }
}

TEST(StudentT, quantiles_match_the_tables) {
  EXPECT_NEAR(student_t_quantile(0.975, 1.0), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 10.0), 2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 31.0), 2.0395, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.95, 7.0), 1.8946, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.75, 31.0), 0.6825, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.025, 10.0), -2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 1e6), 1.95996, 1e-4);  // the normal limit
}

TEST(StudentT, bad_arguments_are_refused) {
  EXPECT_THROW(student_t_quantile(0.0, 3.0), std::invalid_argument);
  EXPECT_THROW(student_t_quantile(1.0, 3.0), std::invalid_argument);
  EXPECT_THROW(student_t_quantile(0.9, 0.0), std::invalid_argument);
  EXPECT_THROW(student_t_cdf(NAN, 3.0), std::invalid_argument);
}
