// The three dealiasing treatments of a pseudo-spectral product against the exact product
// of two cosines, and ETDRK4 with each against Cole-Hopf solutions of viscous Burgers.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "pde/dealiasing.h"
#include "pde/equation.h"
#include "pde/exact_solutions.h"
#include "pde/periodic_solve.h"

using namespace bhpm::pde;

namespace {

const PeriodicGrid kGrid(-M_PI, M_PI, 32);  // wavenumbers 0..16

/// N_hat of u * v for u = cos(a x), v = cos(b x) [32] under `method`.
at::Tensor product_spectrum(const std::string& method, int a, int b) {
  const DealiasedProduct product(kGrid, method);
  const at::Tensor x = kGrid.x();
  const at::Tensor spectra = kGrid.to_spectral(at::stack({at::cos(a * x), at::cos(b * x)}));
  const at::Tensor values = product.to_physical(spectra);  // [2, m]
  return product.to_spectral((values[0] * values[1]).unsqueeze(0))[0];
}

/// Amplitude of cos(k x) in a spectrum of 32 points.
double amplitude(const at::Tensor& spectrum, int k) {
  return 2.0 * at::abs(spectrum[k]).item<double>() / 32.0;
}

/// Viscous Burgers (nu = 0.1) on [-8, 8) with 256 modes from u0, solved to t = 10 with
/// `method`, against Cole-Hopf: max error over the outputs. A non-zero mean c is handled by
/// Galilean invariance: u(x, t) = w(x - c t, t) + c, w the zero-mean solution.
double burgers_error(const at::Tensor& u0, const std::string& method) {
  const PeriodicGrid grid(-8.0, 8.0, 256);
  EquationOptions equation;
  equation.name = "burgers";
  equation.nu = 0.1;
  SolveOptions options;
  options.t_end = 10.0;
  options.output_dt = 0.5;
  options.stepper.dt = 5e-3;
  options.stepper.dealias = method;
  const Solution solution = solve_periodic(grid, make_equation(equation), u0, options);
  const double c = u0.mean().item<double>();
  const at::Tensor w = burgers_cole_hopf(grid, u0 - c, 0.1, solution.t);  // [T, n]
  const at::Tensor shift =
      at::exp(at::complex(at::zeros_like(grid.wavenumbers()), -grid.wavenumbers()).unsqueeze(0) *
              (c * solution.t).unsqueeze(1));
  const at::Tensor exact = grid.to_physical(grid.to_spectral(w) * shift) + c;
  return (solution.u[0] - exact).abs().max().item<double>();
}

}  // namespace

TEST(Dealiasing, padding_keeps_every_mode_of_a_quadratic_product) {
  // cos(10 x) cos(9 x) = (cos x + cos 19x) / 2: 19 > 16 folds onto 32 - 19 = 13 when aliased.
  const at::Tensor padded = product_spectrum("pad", 10, 9);
  EXPECT_NEAR(amplitude(padded, 1), 0.5, 1e-14);
  EXPECT_NEAR(at::abs(padded).narrow(0, 2, 15).max().item<double>(), 0.0, 1e-12);
  const at::Tensor aliased = product_spectrum("none", 10, 9);
  EXPECT_NEAR(amplitude(aliased, 13), 0.5, 1e-14);
  // The 2/3 rule removes the alias but also cos x's partners above 32/3: here it keeps
  // cos x; with cos(12 x) cos(2 x) = (cos 10x + cos 14x) / 2 it loses the resolved cos 14x.
  EXPECT_NEAR(amplitude(product_spectrum("truncate", 10, 9), 1), 0.5, 1e-14);
  EXPECT_NEAR(amplitude(product_spectrum("truncate", 12, 2), 14), 0.0, 1e-14);
  EXPECT_NEAR(amplitude(product_spectrum("pad", 12, 2), 14), 0.5, 1e-14);
  EXPECT_NEAR(amplitude(product_spectrum("pad", 12, 2), 10), 0.5, 1e-14);
}

TEST(Dealiasing, product_points_and_refusal) {
  EXPECT_EQ(DealiasedProduct(kGrid, "pad").product_points(), 48);
  EXPECT_EQ(DealiasedProduct(PeriodicGrid(0, 1, 6), "pad").product_points(), 10);
  EXPECT_EQ(DealiasedProduct(kGrid, "truncate").product_points(), 32);
  EXPECT_THAT([] { (void)DealiasedProduct(kGrid, "2/3"); },
              testing::ThrowsMessage<std::invalid_argument>(testing::HasSubstr("\"pad\"")));
}

TEST(Dealiasing, padded_burgers_matches_cole_hopf_where_truncation_does_not) {
  const PeriodicGrid grid(-8.0, 8.0, 256);
  const at::Tensor x = grid.x();
  const at::Tensor sine = -at::sin(M_PI * x / 8.0);
  const at::Tensor bump = 0.3 + 0.8 * at::exp(-x * x);  // non-zero mean: Galilean shift
  for (const at::Tensor& u0 : {sine, bump}) {
    EXPECT_LT(burgers_error(u0, "pad"), 1e-7);
    EXPECT_LT(burgers_error(u0, "none"), 1e-7);  // resolved: nothing to alias
  }
  // The 2/3 rule zeroes a third of the resolved modes: measured 1.2e-5.
  EXPECT_GT(burgers_error(sine, "truncate"), 1e-6);
}
