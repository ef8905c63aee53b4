// Periodic-GP initial conditions against their closed-form covariance, and the
// expression and file kinds with their errors.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "pde/initial_condition.h"
#include "support/error_message.h"
#include "support/text_file.h"
#include "util/random.h"

using namespace bhpm::pde;
using testing::HasSubstr;

namespace {

using bhpm::testing_support::error_message;

}  // namespace

TEST(PeriodicGp, eigenvalues_match_the_fft_of_the_kernel_row) {
  const PeriodicGrid grid(-8, 8, 64);
  const PeriodicGpOptions options{0.7, 0.8};
  const at::Tensor row = periodic_kernel_matrix(grid, options)[0];
  const at::Tensor from_fft = at::real(grid.to_spectral(row));
  const at::Tensor from_bessel = periodic_kernel_eigenvalues(grid, options);
  const double largest = from_bessel.max().item<double>();
  EXPECT_LT((from_fft - from_bessel).abs().max().item<double>(), 1e-13 * largest);
  EXPECT_GE(from_bessel.min().item<double>(), 0.0);
}

TEST(PeriodicGp, kernel_is_periodic_with_the_domain_length) {
  const PeriodicGrid grid(0, 10, 20);
  const at::Tensor k = periodic_kernel_matrix(grid, {1.0, 1.0});
  // k(x_0, x_j) = k(x_0, x_{n-j}): distance j and n - j are the same on the circle.
  for (int j = 1; j < 10; ++j)
    EXPECT_NEAR(k[0][j].item<double>(), k[0][20 - j].item<double>(), 1e-15);
  EXPECT_DOUBLE_EQ(k[0][0].item<double>(), 1.0);
}

TEST(PeriodicGp, sample_covariance_approaches_the_kernel) {
  const PeriodicGrid grid(-8, 8, 16);
  const PeriodicGpOptions options{1.3, 1.0};
  const int count = 6000;
  std::vector<at::Tensor> samples;
  for (int i = 0; i < count; ++i)
    samples.push_back(sample_periodic_gp(grid, options, bhpm::util::derive_seed(11, "cov", i)));
  const at::Tensor u = at::stack(samples);  // [count, n]
  const at::Tensor empirical = u.t().mm(u) / count;
  const at::Tensor exact = periodic_kernel_matrix(grid, options);
  // Each entry has standard error <= s^2 sqrt(2 / count) = 0.031; allow 5 of them.
  EXPECT_LT((empirical - exact).abs().max().item<double>(), 5 * 1.69 * std::sqrt(2.0 / count));
  EXPECT_LT(u.mean().abs().item<double>(), 0.05);
}

TEST(PeriodicGp, same_seed_same_sample_and_distinct_seeds_differ) {
  const PeriodicGrid grid(-8, 8, 32);
  const at::Tensor a = sample_periodic_gp(grid, {}, 5), b = sample_periodic_gp(grid, {}, 5);
  EXPECT_TRUE(at::equal(a, b));
  EXPECT_GT((a - sample_periodic_gp(grid, {}, 6)).abs().max().item<double>(), 1e-3);
}

TEST(PeriodicGp, rejects_bad_hyperparameters) {
  const PeriodicGrid grid(-8, 8, 32);
  EXPECT_THROW(sample_periodic_gp(grid, {0.0, 1.0}, 1), std::invalid_argument);
  EXPECT_THROW(sample_periodic_gp(grid, {1.0, kMinLengthScale / 2}, 1), std::invalid_argument);
}

TEST(InitialConditions, gp_experiments_do_not_depend_on_the_count) {
  const PeriodicGrid grid(-8, 8, 32);
  const InitialConditionOptions options;
  const at::Tensor two = make_initial_conditions(grid, options, 2, 9, "train");
  const at::Tensor three = make_initial_conditions(grid, options, 3, 9, "train");
  EXPECT_TRUE(at::equal(two, three.slice(0, 0, 2)));
  EXPECT_FALSE(at::equal(two, make_initial_conditions(grid, options, 2, 9, "test")));
}

TEST(InitialConditions, expression_in_x_with_domain_constants) {
  const PeriodicGrid grid(-8, 8, 32);
  InitialConditionOptions options;
  options.kind = "expression";
  options.expression = "-sin(pi*x/8) + x_max - L/2";
  const at::Tensor u0 = make_initial_conditions(grid, options, 2, 0, "train");
  const at::Tensor exact = -at::sin(M_PI * grid.x() / 8);
  EXPECT_LT((u0[1] - exact).abs().max().item<double>(), 1e-15);
}

TEST(InitialConditions, expression_errors_name_the_field) {
  const PeriodicGrid grid(-8, 8, 32);
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_expression(grid, "sin(y)", "ic.expression"); }),
              HasSubstr("ic.expression"));
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_expression(grid, "sin(x", "ic.expression"); }),
              HasSubstr("cannot parse"));
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_expression(grid, "1/(x+8)", "ic.expression"); }),
              HasSubstr("not finite"));
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_expression(grid, "x", "ic.expression"); }),
              HasSubstr("ic.expression 'x': u0 is not periodic on [-8, 8)"));
  EXPECT_NO_THROW(initial_condition_from_expression(grid, "exp(-x^2)", "ic.expression"));
}

TEST(InitialConditions, file_values_of_the_right_length) {
  const PeriodicGrid grid(0, 1, 4);
  const std::string path =
      bhpm::testing_support::write_text_file("ic_ok.txt", "1.5 -2\n3e-1\n  4\n");
  const at::Tensor u0 = initial_condition_from_file(grid, path, "initial_condition.file");
  EXPECT_TRUE(at::allclose(u0, at::tensor({1.5, -2.0, 0.3, 4.0}, at::kDouble)));
}

TEST(InitialConditions, file_errors_name_the_field_and_the_count) {
  const PeriodicGrid grid(0, 1, 4);
  const std::string short_file = bhpm::testing_support::write_text_file("ic_short.txt", "1 2 3");
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_file(grid, short_file, "initial_condition.file"); }),
              testing::AllOf(HasSubstr("initial_condition.file"), HasSubstr("holds 3 values"),
                             HasSubstr("4 points")));
  const std::string bad = bhpm::testing_support::write_text_file("ic_bad.txt", "1 2 abc 4");
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_file(grid, bad, "initial_condition.file"); }),
              HasSubstr("value 3 ('abc')"));
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_file(grid, "/nonexistent/u0.txt", "f"); }),
              HasSubstr("cannot open"));
  const PeriodicGrid fine(0, 1, 8);  // a ramp 0 .. 7: one jump of 7 where the steepest step is 1
  const std::string ramp = bhpm::testing_support::write_text_file("ic_ramp.txt", "0 1 2 3 4 5 6 7");
  EXPECT_THAT(error_message<std::exception>(
                  [&] { initial_condition_from_file(fine, ramp, "initial_condition.file"); }),
              HasSubstr("not periodic"));
}
