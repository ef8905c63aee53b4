// robust_cholesky: plain factor, escalating jitter, errors naming the matrix.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gp/cholesky.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {
using bhpm::testing_support::kReal;

using bhpm::testing_support::max_abs;
}  // namespace

TEST(RobustCholesky, positive_definite_matrix_needs_no_jitter) {
  const at::Tensor b =
      at::tensor({2.0, 1.0, 0.5, 0.0, 3.0, 1.0, 1.0, 0.0, 1.5}, kReal).view({3, 3});
  const at::Tensor a = at::mm(b, b.t());
  const CholeskyFactor factor = robust_cholesky(a, "A");
  EXPECT_EQ(factor.relative_jitter, 0.0);
  EXPECT_EQ(factor.absolute_jitter, 0.0);
  EXPECT_LT(max_abs(at::mm(factor.lower, factor.lower.t()) - a), 1e-13);
  EXPECT_LT(max_abs(factor.lower.triu(1)), 1e-300);
}

TEST(RobustCholesky, rank_deficient_psd_matrix_succeeds_with_jitter) {
  // ones(3, 3) = 1 1^T has rank 1: the second pivot is exactly 0, plain Cholesky fails.
  const at::Tensor a = at::ones({3, 3}, kReal);
  const auto [plain, info] = at::linalg_cholesky_ex(a);
  ASSERT_NE(info.item<int>(), 0) << "the test needs a matrix plain Cholesky rejects";
  const CholeskyFactor factor = robust_cholesky(a, "ones");
  EXPECT_GE(factor.relative_jitter, 1e-10);
  EXPECT_LE(factor.relative_jitter, 1e-4);
  EXPECT_DOUBLE_EQ(factor.absolute_jitter, factor.relative_jitter * 1.0);  // mean diagonal 1
  const at::Tensor jittered = a + factor.absolute_jitter * at::eye(3, kReal);
  EXPECT_LT(max_abs(at::mm(factor.lower, factor.lower.t()) - jittered), 1e-12);
  EXPECT_FALSE(at::isnan(factor.lower).any().item<bool>());
}

TEST(RobustCholesky, indefinite_matrix_throws_naming_the_matrix_and_the_jitter) {
  const at::Tensor a = at::diag(at::tensor({1.0, -1.0}, kReal));
  try {
    robust_cholesky(a, "K_test (indefinite)");
    FAIL() << "no exception";
  } catch (const CholeskyError& e) {
    EXPECT_THAT(e.what(), HasSubstr("K_test (indefinite)"));
    EXPECT_THAT(e.what(), HasSubstr("0, 1e-10, 1e-09"));
    EXPECT_THAT(e.what(), HasSubstr("0.0001 times the mean |diagonal| 1"));
  }
  EXPECT_THROW(robust_cholesky(a, "A"), std::runtime_error);  // CholeskyError is-a runtime_error
}

TEST(RobustCholesky, non_finite_entries_are_reported) {
  at::Tensor a = at::eye(2, kReal);
  a[0][1] = std::nan("");
  a[1][0] = std::nan("");
  try {
    robust_cholesky(a, "B");
    FAIL() << "no exception";
  } catch (const CholeskyError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cholesky of B failed: the matrix has NaN or infinite"));
  }
}

TEST(RobustCholesky, batches_share_one_jitter) {
  const at::Tensor a = at::stack({at::eye(3, kReal) * 2.0, at::ones({3, 3}, kReal)});
  const CholeskyFactor factor = robust_cholesky(a, "batch");
  EXPECT_EQ(factor.lower.sizes(), a.sizes());
  EXPECT_GT(factor.relative_jitter, 0.0);
  // scale = mean |diagonal| over the batch = (2 + 1) / 2.
  EXPECT_DOUBLE_EQ(factor.absolute_jitter, factor.relative_jitter * 1.5);
  const at::Tensor jittered = a + factor.absolute_jitter * at::eye(3, kReal);
  EXPECT_LT(max_abs(at::matmul(factor.lower, factor.lower.transpose(-1, -2)) - jittered), 1e-12);
}

TEST(RobustCholesky, bad_arguments_are_rejected_by_name) {
  EXPECT_THROW(robust_cholesky(at::ones({2, 3}, kReal), "A"), std::invalid_argument);
  EXPECT_THROW(robust_cholesky(at::eye(2, at::kFloat), "A"), std::invalid_argument);
  CholeskyOptions options;
  options.growth = 1.0;
  try {
    robust_cholesky(at::eye(2, kReal), "A", options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("cholesky: growth must be > 1 (got 1)"));
  }
  options = {};
  options.last_jitter = 1e-12;
  EXPECT_THROW(validate(options), std::invalid_argument);
}

TEST(RobustCholesky, custom_schedule_stops_at_last_jitter) {
  CholeskyOptions options;
  options.first_jitter = 1e-6;
  options.last_jitter = 1e-5;
  try {
    robust_cholesky(at::diag(at::tensor({1.0, -1.0}, kReal)), "C", options);
    FAIL() << "no exception";
  } catch (const CholeskyError& e) {
    EXPECT_THAT(e.what(), HasSubstr("relative jitter 0, 1e-06, 1e-05 times"));
  }
}
