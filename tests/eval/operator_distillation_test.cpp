// Distilled equations: the sparse regression recovers known sparse polynomials exactly and
// from noisy values, its cross-validation measures terms on the rows it fits (a fold beyond
// the others' range does not empty the equation) while its final fits measure them on all
// rows, its plain least squares is the normal-equation solution, and the
// distillation reports a known operator's terms and coefficients, the quantiles of random
// coefficients, the truth's projection, and a warning for an operator outside the library.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "eval/operator_distillation.h"
#include "eval/sparse_regression.h"
#include "gp/gaussian_likelihood.h"
#include "gp/rbf_kernel.h"
#include "pde/term_library.h"
#include "solve/burgers_operator.h"
#include "support/error_message.h"

using bhpm::eval::Distillation;
using bhpm::eval::DistillationInputs;
using bhpm::eval::DistillOptions;
using bhpm::eval::SparseRegressionOptions;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

const bhpm::pde::TermLibrary kLibrary = bhpm::pde::make_term_library({"u", "u_x", "u_xx"}, 3);

/// v [P, 3] with u in [-amplitude, amplitude], u_x and u_xx of unit scale, from `seed`.
at::Tensor random_inputs(std::int64_t points, double amplitude, std::uint64_t seed) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  at::Tensor v = at::rand({points, 3}, generator, at::kDouble) * 2.0 - 1.0;
  v.select(1, 0).mul_(amplitude);
  return v;
}

/// Burgers' operator -u u_x + 0.1 u_xx at v [P, 3].
at::Tensor burgers(const at::Tensor& v) {
  return -v.select(1, 0) * v.select(1, 1) + 0.1 * v.select(1, 2);
}

/// Four folds of the rows, as four experiments of P / 4 consecutive rows.
at::Tensor four_folds(std::int64_t points) {
  return at::arange(points, at::kLong).floor_divide((points + 3) / 4);
}

/// Inputs whose S samples all equal f at v: a posterior without variance.
DistillationInputs certain(const at::Tensor& v, const at::Tensor& f, std::int64_t samples) {
  return {v, f.unsqueeze(0).repeat({samples, 1}), f, at::zeros_like(f), four_folds(v.size(0)), {}};
}

/// Expects every sample to have kept exactly -u u_x + 0.1 u_xx, to `tolerance`.
void expect_burgers_terms(const Distillation& d, double tolerance) {
  for (const auto& term : d.terms) {
    const double expected = term.name == "u*u_x" ? -1.0 : term.name == "u_xx" ? 0.1 : 0.0;
    EXPECT_EQ(term.inclusion, expected == 0.0 ? 0.0 : 1.0) << term.name;
    EXPECT_NEAR(term.median, expected, tolerance) << term.name;
    EXPECT_NEAR(term.lower, expected, tolerance) << term.name;
    EXPECT_NEAR(term.upper, expected, tolerance) << term.name;
  }
}

}  // namespace

TEST(SparseRegression, recovers_a_sparse_polynomial_exactly_from_exact_values) {
  const at::Tensor v = random_inputs(2000, 1.0, 1);
  const at::Tensor theta = kLibrary.evaluate(v);
  const auto fit = bhpm::eval::sparse_regression(theta, burgers(v).unsqueeze(0), four_folds(2000),
                                                 SparseRegressionOptions{});
  for (std::int64_t j = 0; j < kLibrary.size(); ++j) {
    const std::string& name = kLibrary.names[j];
    const double expected = name == "u*u_x" ? -1.0 : name == "u_xx" ? 0.1 : 0.0;
    if (expected == 0.0)
      EXPECT_EQ(fit.coefficients[0][j].item<double>(), 0.0) << name;
    else
      EXPECT_NEAR(fit.coefficients[0][j].item<double>(), expected, 1e-9) << name;
  }
  // The chosen threshold keeps the smaller true term, whose RMS contribution relative to
  // the operator's is about 0.1 / sqrt(3) / 0.35, and drops everything else.
  EXPECT_GT(fit.thresholds[0], 0.0);
  EXPECT_LT(fit.thresholds[0], 0.17);
}

TEST(SparseRegression, recovers_the_support_from_values_with_one_percent_noise) {
  // y = 2 u - 0.5 u_x u_xx + noise, noise std 1 % of y's RMS; 20 independent noisy copies.
  const std::int64_t points = 4000, copies = 20;
  const at::Tensor v = random_inputs(points, 1.0, 2);
  const at::Tensor y = 2.0 * v.select(1, 0) - 0.5 * v.select(1, 1) * v.select(1, 2);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(3);
  const double noise = 0.01 * y.square().mean().sqrt().item<double>();
  const at::Tensor targets =
      y.unsqueeze(0) + noise * at::randn({copies, points}, generator, at::kDouble);
  const auto fit = bhpm::eval::sparse_regression(kLibrary.evaluate(v), targets, four_folds(points),
                                                 SparseRegressionOptions{});
  const std::int64_t u = kLibrary.find("u"), uxuxx = kLibrary.find("u_x*u_xx");
  for (std::int64_t s = 0; s < copies; ++s) {
    const at::Tensor kept = fit.coefficients[s].ne(0.0);
    EXPECT_EQ(kept.sum().item<std::int64_t>(), 2) << "copy " << s;
    EXPECT_NEAR(fit.coefficients[s][u].item<double>(), 2.0, 5e-3) << "copy " << s;
    EXPECT_NEAR(fit.coefficients[s][uxuxx].item<double>(), -0.5, 5e-3) << "copy " << s;
  }
}

TEST(SparseRegression, resampling_the_folds_leaves_an_exact_polynomial_exact) {
  const at::Tensor v = random_inputs(2000, 1.0, 6);
  SparseRegressionOptions options;
  options.resample_folds = true;
  options.seed = 11;
  const auto fit = bhpm::eval::sparse_regression(
      kLibrary.evaluate(v), burgers(v).unsqueeze(0).repeat({8, 1}), four_folds(2000), options);
  for (std::int64_t s = 0; s < 8; ++s)
    for (std::int64_t j = 0; j < kLibrary.size(); ++j) {
      const std::string& name = kLibrary.names[j];
      const double expected = name == "u*u_x" ? -1.0 : name == "u_xx" ? 0.1 : 0.0;
      EXPECT_NEAR(fit.coefficients[s][j].item<double>(), expected, 1e-9) << name << ", copy " << s;
    }
}

TEST(SparseRegression, resampled_fits_spread_as_the_bootstrap_of_the_folds_coefficients) {
  // Four folds hold the same 500 inputs with y = (2 + d_k) u in fold k, d = (-0.2, -0.1,
  // 0.1, 0.2): no function of v tells the folds apart, so a fit on all rows returns their
  // average, 2, for every target, while a fit on F folds drawn with replacement returns
  // 2 + the mean of the drawn d_k: over many targets, mean 2 and standard deviation
  // sqrt(mean d_k^2 / F) = sqrt(0.025 / 4) = 0.0791 (the bootstrap of a mean).
  const std::int64_t base = 500, folds = 4, targets = 1000;
  const at::Tensor v = random_inputs(base, 1.0, 7).repeat({folds, 1});
  const at::Tensor fold = at::arange(folds, at::kLong).repeat_interleave(base);
  const at::Tensor slope = 2.0 + at::tensor({-0.2, -0.1, 0.1, 0.2}, at::kDouble);
  const at::Tensor y = slope.index_select(0, fold) * v.select(1, 0);
  SparseRegressionOptions options;
  options.thresholds = {0.0, 0.1};  // keeps u, drops the rounding-level rest
  const at::Tensor theta = kLibrary.evaluate(v);
  const at::Tensor copies = y.unsqueeze(0).repeat({targets, 1});
  const std::int64_t u = kLibrary.find("u");
  const at::Tensor plain =
      bhpm::eval::sparse_regression(theta, copies, fold, options).coefficients.select(1, u);
  EXPECT_NEAR((plain - 2.0).abs().max().item<double>(), 0.0, 1e-9);

  options.resample_folds = true;
  options.seed = 3;
  const at::Tensor fit = bhpm::eval::sparse_regression(theta, copies, fold, options).coefficients;
  const at::Tensor resampled = fit.select(1, u);
  EXPECT_NEAR(resampled.mean().item<double>(), 2.0, 4 * 0.0791 / std::sqrt(targets));
  EXPECT_NEAR(resampled.std().item<double>(), std::sqrt(0.025 / folds), 0.1 * 0.0791);
  EXPECT_EQ(fit.ne(0.0).sum(1).eq(1).all().item<bool>(), true) << "only u is kept";
  // The same seed draws the same resamples; another seed others.
  EXPECT_TRUE(
      at::equal(fit, bhpm::eval::sparse_regression(theta, copies, fold, options).coefficients));
  options.seed = 4;
  EXPECT_FALSE(
      at::equal(fit, bhpm::eval::sparse_regression(theta, copies, fold, options).coefficients));
}

TEST(SparseRegression, a_resample_measures_its_terms_on_all_rows) {
  // Two folds of 400 rows, y = theta_1 + theta_2 exactly, theta_2 = 0.01 z on fold 0 and z
  // on fold 1 (theta_1, z standard normal), the threshold 0.05. Over all rows theta_2
  // carries about half of y, so every resample keeps it, xi = (1, 1), even one that drew
  // fold 0 twice, on whose rows alone theta_2 carries 1 % of y; the cross-validation's fit
  // on fold 0 alone drops it, and so scores fold 1 with theta_1's slope on fold 0.
  const std::int64_t rows = 400, targets = 64;
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(9);
  const at::Tensor fold = at::arange(2, at::kLong).repeat_interleave(rows);
  const at::Tensor first = at::randn({2 * rows}, generator, at::kDouble);
  const at::Tensor second =
      at::randn({2 * rows}, generator, at::kDouble) * at::where(fold == 0, 0.01, 1.0);
  const at::Tensor y = first + second;
  SparseRegressionOptions options;
  options.thresholds = {0.05};
  options.resample_folds = true;
  options.seed = 5;
  const at::Tensor xi =
      bhpm::eval::sparse_regression(at::stack({first, second}, 1),
                                    y.unsqueeze(0).repeat({targets, 1}), fold, options)
          .coefficients;
  // To the solver's 1e-12 ridge, which a fold-0-only resample weighs against theta_2's
  // 1e-4 times smaller square.
  EXPECT_LT((xi - 1.0).abs().max().item<double>(), 1e-7);
}

TEST(SparseRegression, least_squares_solves_the_normal_equations) {
  const at::Tensor v = random_inputs(500, 1.0, 4);
  const at::Tensor theta = kLibrary.evaluate(v);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(5);
  const at::Tensor y = at::randn({2, 500}, generator, at::kDouble);
  const at::Tensor xi = bhpm::eval::least_squares(theta, y);
  // Theta^T (Theta xi - y) = 0 for each row, relative to Theta^T y.
  const at::Tensor gradient = at::mm(theta.t(), at::mm(theta, xi.t()) - y.t());
  EXPECT_LT(gradient.abs().max().item<double>(),
            1e-8 * at::mm(theta.t(), y.t()).abs().max().item<double>());
}

TEST(SparseRegression, refuses_fewer_than_two_folds_an_empty_fold_and_bad_thresholds) {
  const at::Tensor theta = kLibrary.evaluate(random_inputs(10, 1.0, 6));
  const at::Tensor y = at::zeros({1, 10}, at::kDouble);
  SparseRegressionOptions options;
  EXPECT_THAT(error_message([&] {
                bhpm::eval::sparse_regression(theta, y, at::zeros({10}, at::kLong), options);
              }),
              HasSubstr("F >= 2"));
  at::Tensor gap = at::zeros({10}, at::kLong);
  gap.slice(0, 5).fill_(2);  // folds 0 and 2, fold 1 empty
  EXPECT_THAT(error_message([&] { bhpm::eval::sparse_regression(theta, y, gap, options); }),
              HasSubstr("fold 1 is empty"));
  options.thresholds = {-1.0};
  EXPECT_THAT(
      error_message([&] { bhpm::eval::sparse_regression(theta, y, four_folds(10), options); }),
      HasSubstr("thresholds must be finite and >= 0"));
}

TEST(OperatorDistillation, returns_a_certain_polynomial_operator_exactly) {
  const at::Tensor v = random_inputs(4000, 1.5, 7);
  const at::Tensor f = burgers(v);
  DistillationInputs inputs = certain(v, f, 8);
  inputs.truth = f;
  const Distillation d = bhpm::eval::distill_operator(inputs, kLibrary, DistillOptions{});
  expect_burgers_terms(d, 1e-6);
  ASSERT_TRUE(d.has_truth);
  for (const auto& term : d.terms) EXPECT_NEAR(term.truth, term.median, 1e-6) << term.name;
  EXPECT_GT(d.explained, 1.0 - 1e-12);
  EXPECT_GT(d.truth_explained, 1.0 - 1e-12);
  EXPECT_FALSE(d.too_little_explained());
  EXPECT_EQ(bhpm::eval::distillation_warning(d), "");
  EXPECT_EQ(bhpm::eval::distilled_equation(d), "u_t = 0.1 [0.1, 0.1] u_xx - 1 [1, 1] u*u_x");
}

TEST(OperatorDistillation, a_zero_variance_root_with_a_polynomial_mean_distils_to_that_polynomial) {
  // The root's posterior is its mean -u u_x + 0.1 u_xx (kernel variance 1e-20): its
  // pathwise samples are that polynomial, and so is every sample's equation.
  auto kernel =
      std::make_shared<bhpm::gp::RbfKernelImpl>(bhpm::gp::RbfKernelOptions{3, 1.0, 1e-20});
  auto likelihood =
      std::make_shared<bhpm::gp::GaussianLikelihoodImpl>(bhpm::gp::GaussianLikelihoodOptions{});
  const at::Tensor z = at::linspace(-1.0, 1.0, 12, at::kDouble).view({4, 3});
  const bhpm::gp::SparseVariationalGp root(std::make_shared<bhpm::testing_operator::BurgersMean>(),
                                           kernel, likelihood, z);
  const at::Tensor v = random_inputs(1000, 1.5, 12);
  const DistillationInputs inputs =
      bhpm::eval::root_distillation_inputs(*root, v, four_folds(1000), 6, {256, 13});
  ASSERT_EQ(inputs.samples.size(0), 6);
  EXPECT_LT((inputs.mean - burgers(v)).abs().max().item<double>(), 1e-8);
  expect_burgers_terms(bhpm::eval::distill_operator(inputs, kLibrary, DistillOptions{}), 1e-6);
}

TEST(OperatorDistillation, intervals_are_the_quantiles_of_the_samples_coefficients) {
  // Sample s is c_s u_xx - u u_x with c_s ~ N(0.1, 0.01^2): each fit returns c_s, so the
  // interval is the 2.5-97.5 % quantiles of the c_s and the median their median.
  const std::int64_t samples = 41;
  const at::Tensor v = random_inputs(2000, 1.0, 8);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(9);
  const at::Tensor c = 0.1 + 0.01 * at::randn({samples}, generator, at::kDouble);
  DistillationInputs inputs = certain(v, burgers(v), samples);
  inputs.samples = -(v.select(1, 0) * v.select(1, 1)).unsqueeze(0) +
                   c.unsqueeze(1) * v.select(1, 2).unsqueeze(0);
  const Distillation d = bhpm::eval::distill_operator(inputs, kLibrary, DistillOptions{});
  const auto& term = d.terms[kLibrary.find("u_xx")];
  EXPECT_EQ(term.inclusion, 1.0);
  const at::Tensor q = at::quantile(c, at::tensor({0.025, 0.5, 0.975}, at::kDouble));
  EXPECT_NEAR(term.lower, q[0].item<double>(), 1e-9);
  EXPECT_NEAR(term.median, q[1].item<double>(), 1e-9);
  EXPECT_NEAR(term.upper, q[2].item<double>(), 1e-9);
  EXPECT_FALSE(d.has_truth);
  EXPECT_TRUE(std::isnan(term.truth));
}

TEST(OperatorDistillation, warns_when_the_operator_is_not_in_the_library) {
  // f = 0.1 sin(u) u_xx with |u| up to 3: the cubic library leaves a visible part of it.
  const at::Tensor v = random_inputs(4000, 3.0, 10);
  const at::Tensor f = 0.1 * v.select(1, 0).sin() * v.select(1, 2);
  const Distillation d = bhpm::eval::distill_operator(certain(v, f, 4), kLibrary, DistillOptions{});
  EXPECT_TRUE(d.too_little_explained()) << "explained " << d.explained;
  EXPECT_THAT(bhpm::eval::distillation_warning(d), HasSubstr("is not a polynomial of degree 3"));
}

TEST(OperatorDistillation, refuses_one_sample_and_non_finite_samples) {
  const at::Tensor v = random_inputs(100, 1.0, 11);
  EXPECT_THAT(
      error_message([&] { bhpm::eval::distill_operator(certain(v, burgers(v), 1), kLibrary, {}); }),
      HasSubstr("at least 2 samples (got 1)"));
  DistillationInputs bad = certain(v, burgers(v), 3);
  bad.samples[1][7] = std::nan("");
  EXPECT_THAT(error_message([&] { bhpm::eval::distill_operator(bad, kLibrary, {}); }),
              HasSubstr("not finite"));
  DistillOptions options;
  options.max_unexplained = 1.0;
  EXPECT_THAT(error_message([&] {
                bhpm::eval::distill_operator(certain(v, burgers(v), 3), kLibrary, options);
              }),
              HasSubstr("max_unexplained must be in (0, 1)"));
}
