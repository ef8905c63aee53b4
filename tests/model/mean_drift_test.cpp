// The two tests that decide whether predictions conserve the spatial mean: the leaves'
// drift of it (model/mean_drift.h), on fields whose mean is known in closed form, and the
// weak Euler operator of an operator on windows (model/total_derivative_residual.h), on
// operators that are or are not total derivatives.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "model/mean_drift.h"
#include "model/total_derivative_residual.h"

using namespace bhpm;

namespace {

/// [2, T, X] on x in [0, 1) (periodic) and t in [0, 1]: leaf 0 a travelling wave
/// sin 2 pi (x - t), whose mean stays 0; leaf 1 the same plus a t.
at::Tensor travelling_waves(double a) {
  const std::int64_t points = 64, times = 11;
  const at::Tensor x = (at::arange(points, at::kDouble) / points).view({1, -1});
  const at::Tensor t = at::linspace(0.0, 1.0, times, at::kDouble).view({-1, 1});
  const at::Tensor wave = at::sin(2.0 * M_PI * (x - t));
  return at::stack({wave, wave + a * t});
}

/// u = sin(x - t) + 0.5 cos(2 x + t) + 0.3 and its x derivatives on a window [0.3, 4.1]
/// (not a period) of `points` points at 5 times: v_k [T, X] for k = 0, 1, 2.
std::vector<at::Tensor> window_state(std::int64_t points = 257) {
  const at::Tensor x = at::linspace(0.3, 4.1, points, at::kDouble).view({1, -1});
  const at::Tensor t = at::linspace(0.0, 2.0, 5, at::kDouble).view({-1, 1});
  return {at::sin(x - t) + 0.5 * at::cos(2 * x + t) + 0.3, at::cos(x - t) - at::sin(2 * x + t),
          -at::sin(x - t) - 2.0 * at::cos(2 * x + t)};
}

/// rho of the operator whose gradient (df/du, df/du_x, df/du_xx) along the state is given.
double residual(const std::vector<at::Tensor>& gradient) {
  return model::total_derivative_residual(at::stack(gradient, -1).unsqueeze(0),
                                          {nn::DomainBox{0.3, 4.1, 0.0, 2.0}})
      .relative;
}

}  // namespace

TEST(TotalDerivativeResidual, bumps_have_their_closed_form_derivatives) {
  const at::Tensor s = at::tensor({-1.5, -0.5, 0.2, 0.9}, at::kDouble);
  const at::Tensor d = model::bump_derivatives(s, 2, 2);  // (1 - s^2)^2
  const at::Tensor inside = (s.abs() < 1).to(at::kDouble);
  EXPECT_TRUE(at::allclose(d[0], inside * (1 - s * s).square()));
  EXPECT_TRUE(at::allclose(d[1], inside * -4 * s * (1 - s * s)));
  EXPECT_TRUE(at::allclose(d[2], inside * (12 * s * s - 4)));
}

TEST(TotalDerivativeResidual, vanishes_for_total_derivatives_on_a_window) {
  // Only the trapezoidal rule's error is left, falling at least second order in the spacing
  // (the bumps' second derivatives, of (1 - s^2)^4, are C^1 at the ends of their support).
  for (std::int64_t points : {129, 257}) {
    const std::vector<at::Tensor> v = window_state(points), fine = window_state(2 * points - 1);
    // Burgers, f = 0.1 u_xx - u u_x: (-u_x, -u, 0.1).
    const double burgers = residual({-v[1], -v[0], at::full_like(v[0], 0.1)});
    EXPECT_LT(burgers, 1e-3);
    EXPECT_LT(residual({-fine[1], -fine[0], at::full_like(fine[0], 0.1)}), burgers / 3);
    // f = (u u_x)_x = u u_xx + u_x^2: (u_xx, 2 u_x, u).
    const double flux = residual({v[2], 2 * v[1], v[0]});
    EXPECT_LT(flux, 1e-3);
    EXPECT_LT(residual({fine[2], 2 * fine[1], fine[0]}), flux / 3);
  }
}

TEST(TotalDerivativeResidual, sees_damping_and_a_term_that_is_no_derivative) {
  const std::vector<at::Tensor> v = window_state();
  // Burgers damped by 0.2 u: the damping's -0.2 int phi is left uncancelled.
  EXPECT_GT(residual({-v[1] - 0.2, -v[0], at::full_like(v[0], 0.1)}),
            model::kTotalDerivativeTolerance);
  // f = u_x^2: a single term, nothing cancels it.
  EXPECT_NEAR(residual({at::zeros_like(v[0]), 2 * v[1], at::zeros_like(v[0])}), 1.0, 1e-12);
}

TEST(MeanDrift, is_the_largest_move_of_the_mean_against_the_spread_of_u) {
  const model::MeanDrift drift = model::mean_drift(travelling_waves(0.003));
  ASSERT_EQ(drift.drift.size(), 2u);
  EXPECT_LT(drift.drift[0], 1e-14);
  EXPECT_NEAR(drift.drift[1], 0.003, 1e-14);
  EXPECT_NEAR(drift.scale[0], std::sqrt(0.5), 1e-12);  // RMS of a sine over whole periods
  EXPECT_NEAR(drift.relative(), 0.003 / drift.scale[1], 1e-14);
  EXPECT_TRUE(drift.conserved());
}

TEST(MeanDrift, a_source_of_a_few_per_cent_is_not_conservation) {
  EXPECT_FALSE(model::mean_drift(travelling_waves(0.05)).conserved());
}

TEST(MeanDrift, constant_fields_conserve_their_mean) {
  const model::MeanDrift drift = model::mean_drift(at::full({3, 4, 8}, 0.7, at::kDouble));
  EXPECT_EQ(drift.relative(), 0.0);
  EXPECT_TRUE(drift.conserved());
}

TEST(MeanDrift, refuses_fields_that_are_not_leaf_by_time_by_space) {
  EXPECT_THROW(model::mean_drift(at::zeros({4, 8}, at::kDouble)), std::invalid_argument);
}
