// The well-posedness check of operator samples against operators whose symbol is known:
// heat forwards and backwards, KdV with both signs of dispersion, with and without an
// anti-diffusive part, and fourth-order (hyper)diffusion.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pde/initial_condition.h"
#include "pde/periodic_grid.h"
#include "solve/well_posedness.h"

using namespace bhpm;

namespace {

const pde::PeriodicGrid kGrid(-M_PI, M_PI, 64);  // wavenumbers 0..32; 2/3 rule keeps 0..21

/// Member s: f_s(v) = a (-v_0 v_1) + sum_m c[s][m] v_m, D = c[s].size().
class PolynomialSamples final : public gp::FunctionSamples {
 public:
  PolynomialSamples(double advection, std::vector<std::vector<double>> coefficients)
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
  const at::Tensor u0 = pde::initial_condition_from_expression(kGrid, "sin(x) + 0.5", "u0");
  return solve::check_well_posedness(samples, kGrid, u0, {t_end, dealias, 10.0});
}

}  // namespace

TEST(WellPosedness, heat_forwards_is_well_posed_and_backwards_is_not) {
  const PolynomialSamples heat(0.0, {{0.0, 0.0, 0.1}, {0.0, 0.0, -0.1}});
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

TEST(WellPosedness, kdv_is_neutral_with_either_sign_of_dispersion) {
  const PolynomialSamples kdv(1.0, {{0.0, 0.0, 0.0, -1.0}, {0.0, 0.0, 0.0, 1.0}});
  const solve::WellPosedness result = check(kdv, 40.0);
  for (std::int64_t s = 0; s < 2; ++s) {
    // c_0 = mean(-u_x) = 0 over a period; (i k)^3 is imaginary: no growth at all.
    EXPECT_NEAR(result.growth[s].item<double>(), 0.0, 1e-10) << "member " << s;
    EXPECT_FALSE(result.ill_posed[s].item<bool>());
    EXPECT_NEAR(result.linearisation[s][1].item<double>(), -0.5, 1e-12);  // -mean(u)
  }
}

TEST(WellPosedness, kdv_with_a_small_anti_diffusion_is_ill_posed_over_a_long_horizon) {
  const PolynomialSamples kdv(1.0, {{0.0, 0.0, -1e-3, -1.0}, {0.0, 0.0, 1e-3, -1.0}});
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
