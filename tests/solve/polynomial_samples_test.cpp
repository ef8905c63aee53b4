// Polynomial operator samples (the distilled equation's): their values and Jacobians against
// the polynomials written out, an ensemble of heat equations u_t = c_s u_xx solved by
// predict_with_samples against the exact decay exp(-c_s t) of a sine mode, and their plain
// values and plain-array solves against the tensor ones.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>

#include <cmath>
#include <memory>

#include "pde/equation.h"
#include "pde/periodic_solve.h"
#include "pde/plain_periodic_solve.h"
#include "pde/term_library.h"
#include "solve/polynomial_samples.h"
#include "solve/predictor.h"
#include "solve/sampled_operator.h"
#include "solve/shifted_samples.h"
#include "support/error_message.h"

using namespace bhpm;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

const pde::TermLibrary kLibrary = pde::make_term_library({"u", "u_x", "u_xx"}, 2);

/// Sample 0: -u u_x + 0.1 u_xx; sample 1: 0.5 - 2 u^2.
at::Tensor two_polynomials() {
  at::Tensor xi = at::zeros({2, kLibrary.size()}, at::kDouble);
  xi[0][kLibrary.find("u*u_x")] = -1.0;
  xi[0][kLibrary.find("u_xx")] = 0.1;
  xi[1][kLibrary.find("1")] = 0.5;
  xi[1][kLibrary.find("u^2")] = -2.0;
  return xi;
}

}  // namespace

TEST(PolynomialSamples, evaluate_the_polynomials_and_their_jacobians) {
  const solve::PolynomialSamples samples(kLibrary, two_polynomials());
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(1);
  const at::Tensor v = at::randn({2, 7, 3}, generator, at::kDouble).requires_grad_(true);
  const at::Tensor f = samples.evaluate(v);
  const at::Tensor u = v.select(2, 0), ux = v.select(2, 1), uxx = v.select(2, 2);
  EXPECT_LT((f[0] - (-u[0] * ux[0] + 0.1 * uxx[0])).abs().max().item<double>(), 1e-14);
  EXPECT_LT((f[1] - (0.5 - 2.0 * u[1] * u[1])).abs().max().item<double>(), 1e-14);
  const at::Tensor gradient = torch::autograd::grad({f.sum()}, {v})[0];
  EXPECT_LT((gradient[0].select(1, 0) + ux[0]).abs().max().item<double>(), 1e-14);  // -u_x
  EXPECT_LT((gradient[0].select(1, 2) - 0.1).abs().max().item<double>(), 1e-14);
  EXPECT_LT((gradient[1].select(1, 0) + 4.0 * u[1]).abs().max().item<double>(), 1e-14);
  EXPECT_THAT(error_message([] {
                solve::PolynomialSamples(kLibrary, at::zeros({2, 3}, at::kDouble));
              }),
              HasSubstr("[S, 10]"));
}

TEST(PolynomialSamples, solved_as_heat_equations_they_decay_as_the_exact_solutions) {
  // u_t = c_s u_xx, u0 = sin(x) on [-pi, pi): u_s = exp(-c_s t) sin(x).
  const std::vector<double> c = {0.05, 0.2, 0.4};
  at::Tensor xi = at::zeros({3, kLibrary.size()}, at::kDouble);
  for (std::int64_t s = 0; s < 3; ++s) xi[s][kLibrary.find("u_xx")] = c[s];
  solve::PredictionProblem problem;
  problem.grid = pde::PeriodicGrid(-M_PI, M_PI, 32);
  problem.u0 = problem.grid.x().sin();
  problem.solve.t_end = 2.0;
  problem.solve.output_dt = 0.5;
  problem.solve.stepper.dt = 0.01;
  solve::PredictorOptions options;
  const solve::Prediction prediction = solve::predict_with_samples(
      std::make_shared<solve::PolynomialSamples>(kLibrary, xi), problem, options);
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  ASSERT_EQ(ensemble.u.size(0), 3);
  EXPECT_EQ(ensemble.diverged_count(), 0);
  EXPECT_EQ(ensemble.rejected_count(), 0);
  EXPECT_EQ(prediction.discrepancy_variance, 0.0);
  for (std::int64_t s = 0; s < 3; ++s)
    for (std::int64_t k = 0; k < ensemble.t.size(0); ++k) {
      const double t = ensemble.t[k].item<double>();
      const at::Tensor exact = std::exp(-c[s] * t) * problem.u0;
      EXPECT_LT((ensemble.u[s][k] - exact).abs().max().item<double>(), 1e-10)
          << "sample " << s << ", t = " << t;
    }
}

TEST(ShiftedSamples, move_every_sample_to_the_target_coefficients_and_keep_the_rest) {
  // f_0 = 0.1 u_xx - (u u_x + u^2), f_1 = 0.5 - 2 u^2; the terms u_xx and u u_x + u^2 (a
  // combination of monomials, as a weak term's pointwise form is): f_0 lies in their span,
  // so its least-squares coefficients are (0.1, -1) exactly.
  at::Tensor xi = two_polynomials();
  xi[0][kLibrary.find("u^2")] = -1.0;
  const solve::PolynomialSamples samples(kLibrary, xi);
  at::Tensor terms = at::zeros({2, kLibrary.size()}, at::kDouble);
  terms[0][kLibrary.find("u_xx")] = 1.0;
  terms[1][kLibrary.find("u*u_x")] = 1.0;
  terms[1][kLibrary.find("u^2")] = 1.0;
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(2);
  const at::Tensor v = at::randn({64, 3}, generator, at::kDouble);
  const at::Tensor values = samples.evaluate(v.unsqueeze(0).expand({2, 64, 3}))[0];
  const at::Tensor beta = solve::term_coefficients(kLibrary, terms, v, values);
  EXPECT_NEAR(beta[0].item<double>(), 0.1, 1e-12);
  EXPECT_NEAR(beta[1].item<double>(), -1.0, 1e-12);

  // g = (xi - beta) T with xi = (0.12, -0.97): every sample moves by the same g, so f_0 + g
  // is 0.12 u_xx - 0.97 (u u_x + u^2) and f_1 + g keeps f_1 - f_0's difference.
  const at::Tensor target = at::tensor({0.12, -0.97}, at::kDouble);
  auto shift = std::make_shared<solve::OperatorShift>();
  shift->library = kLibrary;
  shift->coefficients = at::matmul(target - beta, terms);
  const auto plain = std::make_shared<solve::PolynomialSamples>(kLibrary, xi);
  const solve::ShiftedSamples shifted(plain, shift);
  const at::Tensor w = at::randn({1, 9, 3}, generator, at::kDouble).expand({2, 9, 3});  // same rows
  const at::Tensor f = shifted.evaluate(w);
  const at::Tensor u = w.select(2, 0), ux = w.select(2, 1), uxx = w.select(2, 2);
  EXPECT_LT(
      (f[0] - (0.12 * uxx[0] - 0.97 * (u[0] * ux[0] + u[0] * u[0]))).abs().max().item<double>(),
      1e-12);
  const at::Tensor unshifted = plain->evaluate(w);
  EXPECT_LT(((f[1] - f[0]) - (unshifted[1] - unshifted[0])).abs().max().item<double>(), 1e-12);
  const at::Tensor second = shifted.select(at::tensor({1}, at::kLong))->evaluate(w.narrow(0, 1, 1));
  EXPECT_LT((second[0] - f[1]).abs().max().item<double>(), 1e-14);
  shift->coefficients = at::zeros({3}, at::kDouble);
  EXPECT_THAT(error_message([&] { solve::ShiftedSamples(plain, shift); }), HasSubstr("[10]"));
}

// Polynomial samples evaluate plain arrays, so their ensembles are solved member by member
// without tensors (pde/plain_periodic_solve.h): values equal to the tensor evaluation, and
// the same ensemble (L = the average Jacobian, the mean projected out) as the batched
// engine's to rounding, with the same steps.
TEST(PolynomialSamples, plain_values_and_plain_solves_match_the_tensor_ones) {
  at::Tensor xi = at::zeros({3, kLibrary.size()}, at::kDouble);
  for (std::int64_t s = 0; s < 3; ++s) {
    xi[s][kLibrary.find("u*u_x")] = -1.0 + 0.05 * static_cast<double>(s);
    xi[s][kLibrary.find("u_xx")] = 0.08 + 0.02 * static_cast<double>(s);
    xi[s][kLibrary.find("u^2")] = 0.01 * static_cast<double>(s);
  }
  const auto samples = std::make_shared<solve::PolynomialSamples>(kLibrary, xi);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(3);
  const at::Tensor v = at::randn({3, 5, 3}, generator, at::kDouble);
  const at::Tensor f = samples->evaluate(v);
  for (std::int64_t s = 0; s < 3; ++s) {
    const at::Tensor rows = v[s].t().contiguous();  // [D, P]
    double out[5];
    samples->evaluate_values(s, rows.data_ptr<double>(), 5, 0.0, out);
    for (std::int64_t p = 0; p < 5; ++p) EXPECT_NEAR(out[p], f[s][p].item<double>(), 1e-14);
  }

  const pde::PeriodicGrid grid(-8, 8, 64);
  const at::Tensor u0 = 0.5 * at::sin(M_PI * grid.x() / 8) + 0.1;
  pde::Equation equation;
  equation.name = "polynomial samples";
  equation.linear = {0.0, -0.1, 0.1};
  equation.nonlinear = std::make_shared<solve::SampledOperatorTerm>(samples, equation.linear,
                                                                    /*conserve_mean=*/true);
  pde::SolveOptions options;
  options.t_end = 2.0;
  options.output_dt = 0.25;
  options.stepper.dt = 0.05;
  options.tolerance = 1e-8;
  ASSERT_TRUE(pde::solves_on_plain_arrays(grid, equation));
  const at::Tensor starts = u0.expand({3, -1}).contiguous();
  const pde::Solution plain = pde::solve_periodic_plain(grid, equation, starts, options);
  const pde::Solution batched = pde::solve_periodic_batched(grid, equation, starts, options);
  EXPECT_LT((plain.u - batched.u).abs().max().item<double>(), 1e-12);
  EXPECT_EQ(plain.member_steps, batched.member_steps);
  EXPECT_GT((plain.u[2] - plain.u[0]).abs().max().item<double>(), 1e-3);  // members differ
}
