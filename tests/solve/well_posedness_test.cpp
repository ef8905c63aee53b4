// The well-posedness check of operator samples against operators whose symbol is known:
// heat forwards and backwards, KdV with both signs of dispersion, with and without an
// anti-diffusive part, and fourth-order (hyper)diffusion; the least stabilising diffusion
// in closed form, and predict's repair of an ill-posed heat sample against the exact
// solution of the repaired equation.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pde/chebyshev_grid.h"
#include "pde/initial_condition.h"
#include "pde/periodic_grid.h"
#include "solve/predictor.h"
#include "solve/stabilised_samples.h"
#include "solve/well_posedness.h"

using namespace bhpm;

namespace {

const pde::PeriodicGrid kSpectrumGrid(-M_PI, M_PI, 64);  // wavenumbers 0..32; 2/3 rule keeps 0..21

/// Member s: f_s(v) = a (-v_0 v_1) + sum_m c[s][m] v_m, D = c[s].size().
class AdvectionPlusLinearSamples final : public gp::FunctionSamples {
 public:
  AdvectionPlusLinearSamples(double advection, std::vector<std::vector<double>> coefficients)
      : advection_(advection), coefficients_(std::move(coefficients)) {}
  std::int64_t count() const override { return static_cast<std::int64_t>(coefficients_.size()); }
  std::int64_t dimensions() const override {
    return static_cast<std::int64_t>(coefficients_.front().size());
  }
  at::Tensor evaluate(const at::Tensor& v) const override {
    at::Tensor c = at::tensor(coefficients_.front(), at::kDouble).unsqueeze(0);
    for (std::size_t s = 1; s < coefficients_.size(); ++s)
      c = at::cat({c, at::tensor(coefficients_[s], at::kDouble).unsqueeze(0)});
    return advection_ * -v.select(2, 0) * v.select(2, 1) + (v * c.unsqueeze(1)).sum(2);
  }

 private:
  double advection_;
  std::vector<std::vector<double>> coefficients_;
};

solve::WellPosedness check(const gp::FunctionSamples& samples, double t_end,
                           const std::string& dealias = "truncate") {
  const at::Tensor u0 = pde::initial_condition_from_expression(kSpectrumGrid, "sin(x) + 0.5", "u0");
  return solve::check_well_posedness(samples, kSpectrumGrid, u0, {t_end, dealias, 10.0});
}

}  // namespace

TEST(WellPosedness, heat_forwards_is_well_posed_and_backwards_is_not) {
  const AdvectionPlusLinearSamples heat(0.0, {{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
  const solve::WellPosedness result = check(heat, 2.0);
  // Forwards the slowest decaying wave is k = 1: -0.1 * 1 * 2; backwards the fastest
  // growing one is the largest kept, k = 21: 0.1 * 441 * 2.
  EXPECT_NEAR(result.growth[0].item<double>(), -0.2, 1e-12);
  EXPECT_NEAR(result.growth[1].item<double>(), 88.2, 1e-10);
  EXPECT_FALSE(result.ill_posed[0].item<bool>());
  EXPECT_TRUE(result.ill_posed[1].item<bool>());
  EXPECT_NEAR(result.limit_e_folds, std::log(10.0), 1e-15);
  EXPECT_NEAR(result.linearisation[1][2].item<double>(), -0.1, 1e-14);
  // Without dealiasing the Nyquist wave k = 32 counts too; padding keeps all but it.
  EXPECT_NEAR(check(heat, 2.0, "none").growth[1].item<double>(), 0.1 * 1024 * 2, 1e-9);
  EXPECT_NEAR(check(heat, 2.0, "pad").growth[1].item<double>(), 0.1 * 961 * 2, 1e-9);
}

TEST(WellPosedness, on_a_window_the_wavenumbers_are_those_of_its_length) {
  // [0, 2 pi] on 64 Chebyshev intervals: k_j = j for j = 0..32, no dealiasing; the frozen
  // coefficients are means over the grid's points.
  const pde::ChebyshevGrid window(0.0, 2.0 * M_PI, 64);
  const AdvectionPlusLinearSamples heat(0.0, {{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
  const solve::WellPosedness result = solve::check_well_posedness(
      heat, window, 0.5 + 0.1 * window.x().to(at::kDouble), {2.0, "none", 10.0});
  EXPECT_NEAR(result.growth[0].item<double>(), -0.2, 1e-12);
  EXPECT_NEAR(result.growth[1].item<double>(), 0.1 * 1024 * 2, 1e-9);
  EXPECT_FALSE(result.ill_posed[0].item<bool>());
  EXPECT_TRUE(result.ill_posed[1].item<bool>());
  // The least diffusion within the limit: max_k (0.1 k^2 t_end - ln 10) / (k^2 t_end), at
  // the largest k = 32.
  EXPECT_NEAR(result.diffusion[1].item<double>(), 0.1 - std::log(10.0) / (2.0 * 1024.0), 1e-12);
}

TEST(WellPosedness, kdv_is_neutral_with_either_sign_of_dispersion) {
  const AdvectionPlusLinearSamples kdv(1.0, {{0.0, 0.0, 0.0, -1.0}, {0.0, 0.0, 0.0, 1.0}});
  const solve::WellPosedness result = check(kdv, 40.0);
  for (std::int64_t s = 0; s < 2; ++s) {
    // c_0 = mean(-u_x) = 0 over a period; (i k)^3 is imaginary: no growth at all.
    EXPECT_NEAR(result.growth[s].item<double>(), 0.0, 1e-10) << "member " << s;
    EXPECT_FALSE(result.ill_posed[s].item<bool>());
    EXPECT_NEAR(result.linearisation[s][1].item<double>(), -0.5, 1e-12);  // -mean(u)
  }
}

TEST(WellPosedness, kdv_with_a_small_anti_diffusion_is_ill_posed_over_a_long_horizon) {
  const AdvectionPlusLinearSamples kdv(1.0, {{0.0, 0.0, -1e-3, -1.0}, {0.0, 0.0, 1e-3, -1.0}});
  const solve::WellPosedness result = check(kdv, 40.0);
  EXPECT_NEAR(result.growth[0].item<double>(), 1e-3 * 441 * 40, 1e-9);  // 17.6 e-folds
  EXPECT_TRUE(result.ill_posed[0].item<bool>());
  EXPECT_NEAR(result.growth[1].item<double>(), -1e-3 * 40, 1e-12);
  EXPECT_FALSE(result.ill_posed[1].item<bool>());
  // Over a short horizon the same sample grows less than tenfold: accepted.
  EXPECT_FALSE(check(kdv, 0.1).ill_posed[0].item<bool>());
}

TEST(WellPosedness, fourth_order_diffusion_has_the_opposite_sign_rule) {
  // Re (i k)^4 = k^4: u_t = -c u_xxxx is well-posed for c > 0.
  const at::Tensor c =
      at::tensor({0.0, 0.0, 0.0, 0.0, -1e-4, 0.0, 0.0, 0.0, 0.0, 1e-4}, at::kDouble).view({2, 5});
  const at::Tensor k = at::arange(0, 11, at::kDouble);
  const at::Tensor growth = solve::symbol_growth(c, k, 1.0);
  EXPECT_NEAR(growth[0].item<double>(), -1e-4, 1e-15);
  EXPECT_NEAR(growth[1].item<double>(), 1.0, 1e-12);
}

TEST(WellPosedness, bad_options_are_refused) {
  EXPECT_THROW(solve::validate(solve::WellPosednessOptions{0.0, "truncate", 10.0}),
               std::invalid_argument);
  EXPECT_THROW(solve::validate(solve::WellPosednessOptions{1.0, "truncate", 1.0}),
               std::invalid_argument);
  EXPECT_THROW(solve::validate(solve::WellPosednessOptions{1.0, "2/3", 10.0}),
               std::invalid_argument);
}

TEST(WellPosedness, the_least_stabilising_diffusion_brings_a_sample_to_the_limit) {
  const AdvectionPlusLinearSamples heat(0.0, {{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
  const solve::WellPosedness result = check(heat, 2.0);
  // Backwards: a k^2 t_end must cover 0.1 k^2 t_end - ln 10 at every kept k <= 21.
  const double expected = 0.1 - std::log(10.0) / (2.0 * 441.0);
  EXPECT_EQ(result.diffusion[0].item<double>(), 0.0);
  EXPECT_NEAR(result.diffusion[1].item<double>(), expected, 1e-14);
  const solve::StabilisedSamples repaired(std::make_shared<AdvectionPlusLinearSamples>(heat),
                                          result.diffusion);
  const solve::WellPosedness after = check(repaired, 2.0);
  EXPECT_NEAR(after.growth[0].item<double>(), -0.2, 1e-12);
  EXPECT_NEAR(after.growth[1].item<double>(), std::log(10.0), 1e-10);
  EXPECT_NEAR(after.linearisation[1][2].item<double>(), -0.1 + expected, 1e-14);
  EXPECT_NEAR(after.diffusion[1].item<double>(), 0.0, 1e-14);
  // KdV with a small anti-diffusion over [0, 40]: the same rule.
  const AdvectionPlusLinearSamples kdv(1.0, {{0.0, 0.0, -1e-3, -1.0}});
  EXPECT_NEAR(check(kdv, 40.0).diffusion[0].item<double>(), 1e-3 - std::log(10.0) / (40.0 * 441.0),
              1e-15);
}

TEST(WellPosedness, predict_repairs_an_ill_posed_sample_or_rejects_it) {
  // u_t = c_s u_xx from sin(x) on [-pi, pi), c = (0.1, -0.1), t_end = 2. Repaired, member 1
  // solves u_t = -e u_xx, e = ln 10 / (2 * 441): exp(e t) sin(x).
  solve::PredictionProblem problem;
  problem.grid = kSpectrumGrid;
  problem.u0 = kSpectrumGrid.x().sin();
  problem.solve.t_end = 2.0;
  problem.solve.output_dt = 0.5;
  problem.solve.stepper.dt = 0.01;
  const auto heat = std::make_shared<AdvectionPlusLinearSamples>(
      0.0, std::vector<std::vector<double>>{{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
  solve::PredictorOptions options;
  EXPECT_EQ(options.ill_posed, "repair");
  const solve::EnsembleSolution repaired =
      solve::predict_with_samples(heat, problem, options).ensemble;
  EXPECT_EQ(repaired.rejected_count(), 0);
  EXPECT_EQ(repaired.diverged_count(), 0);
  EXPECT_EQ(repaired.repaired_count(), 1);
  EXPECT_TRUE(repaired.repaired()[1].item<bool>());
  EXPECT_NEAR(repaired.added_diffusion[1].item<double>(), 0.1 - std::log(10.0) / 882.0, 1e-14);
  EXPECT_NEAR(repaired.growth[1].item<double>(), 88.2, 1e-10);  // before the repair
  const double e = std::log(10.0) / 882.0;
  for (std::int64_t k = 0; k < repaired.t.size(0); ++k) {
    const double t = repaired.t[k].item<double>();
    EXPECT_LT((repaired.u[0][k] - std::exp(-0.1 * t) * problem.u0).abs().max().item<double>(),
              1e-10);
    EXPECT_LT((repaired.u[1][k] - std::exp(e * t) * problem.u0).abs().max().item<double>(), 1e-10)
        << "t = " << t;
  }
  options.ill_posed = "reject";
  const solve::EnsembleSolution rejected =
      solve::predict_with_samples(heat, problem, options).ensemble;
  EXPECT_EQ(rejected.rejected_count(), 1);
  EXPECT_EQ(rejected.repaired_count(), 0);
  EXPECT_TRUE(at::isnan(rejected.u[1]).all().item<bool>());
  EXPECT_NE(rejected.failures[1].find("ill-posed"), std::string::npos);
  options.ill_posed = "ignore";
  EXPECT_THROW(solve::validate(options), std::invalid_argument);
}

TEST(StabilisedSamples, bad_diffusion_is_refused) {
  const auto heat = std::make_shared<AdvectionPlusLinearSamples>(
      0.0, std::vector<std::vector<double>>{{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
  const auto two = [](double a, double b) { return at::tensor({a, b}, at::kDouble); };
  EXPECT_THROW(solve::StabilisedSamples(nullptr, two(0, 1)), std::invalid_argument);
  EXPECT_THROW(solve::StabilisedSamples(heat, at::zeros({3}, at::kDouble)), std::invalid_argument);
  EXPECT_THROW(solve::StabilisedSamples(heat, two(0, -1)), std::invalid_argument);
  EXPECT_THROW(solve::StabilisedSamples(heat, two(0, NAN)), std::invalid_argument);
  const auto advection = std::make_shared<AdvectionPlusLinearSamples>(
      0.0, std::vector<std::vector<double>>{{0.0, 1.0}, {0.0, -1.0}});
  EXPECT_THROW(solve::StabilisedSamples(advection, two(0, 1e-3)), std::invalid_argument);
  EXPECT_NO_THROW(solve::StabilisedSamples(advection, two(0, 0)));
}
