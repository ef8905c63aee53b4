// The weak form against mathematics: the test function's derivatives against finite
// differences; the columns of an exact viscous Burgers travelling wave, whose weak-form
// coefficients are exactly (-1, nu), fitted to quadrature accuracy; the width rule's scales
// of a heat mode, known in closed form; the resampled fit keeping exactly the true terms of
// exact Cole-Hopf solutions; the
// refusal of windows too short for the fields' own length scale; a system's weak
// columns (products of two fields) giving an NLS soliton's coefficients; and on a plane,
// decaying travelling modes giving their advection-diffusion coefficients, mixed partial
// included, and an oblique Burgers front its diffusion and transport.

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/autograd.h>

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "eval/sparse_regression.h"
#include "eval/system_weak_form.h"
#include "eval/weak_form.h"
#include "eval/weak_form_distillation.h"
#include "eval/weak_term_expansion.h"
#include "pde/grid_field.h"
#include "pde/term_library.h"

using bhpm::eval::WeakTerm;
using bhpm::pde::GridField;

namespace {

/// u = c - A tanh(A (x - c t) / (2 nu)) solves u_t + u u_x = nu u_xx exactly; on
/// n x T points spanning [x0, x1] x [t0, t1] (ends included), with u_x and u_t.
GridField burgers_front(double c, double amplitude, double nu, double x0, double x1, double t0,
                        double t1, std::int64_t n = 384, std::int64_t times = 192) {
  GridField field;
  field.x = at::linspace(x0, x1, n, at::kDouble);
  field.t = at::linspace(t0, t1, times, at::kDouble);
  const std::vector<at::Tensor> mesh = at::meshgrid({field.t, field.x}, "ij");
  const at::Tensor z = amplitude * (mesh[1] - c * mesh[0]) / (2.0 * nu);
  const at::Tensor sech2 = 1.0 - z.tanh().square();
  field.u = c - amplitude * z.tanh();
  field.u_x = -amplitude * sech2 * amplitude / (2.0 * nu);
  field.u_t = -c * field.u_x;
  return field;
}

/// One cosine mode of the heat equation phi_t = nu phi_xx: a exp(-nu k^2 t) cos(k x + p).
struct HeatMode {
  double amplitude, wavenumber, phase;
};

/// Burgers' u_t + u u_x = nu u_xx by the Cole-Hopf transform, u = -2 nu phi_x / phi, with
/// phi = 1 + the modes (sum of |a| < 1, so phi > 0): exact, and not a travelling wave (one
/// travelling wave also solves u_t = -c u_x, which a sparse fit rightly prefers).
GridField cole_hopf(const std::vector<HeatMode>& modes, double nu, double x0, double x1, double t0,
                    double t1, std::int64_t n = 256, std::int64_t times = 128) {
  GridField field;
  field.x = at::linspace(x0, x1, n, at::kDouble);
  field.t = at::linspace(t0, t1, times, at::kDouble);
  const std::vector<at::Tensor> mesh = at::meshgrid({field.t, field.x}, "ij");
  at::Tensor phi = at::ones_like(mesh[0]), phi_x = at::zeros_like(phi);
  at::Tensor phi_xx = at::zeros_like(phi), phi_xxx = at::zeros_like(phi);
  for (const HeatMode& m : modes) {
    const double k = m.wavenumber;
    const at::Tensor decay = m.amplitude * at::exp(-nu * k * k * mesh[0]);
    const at::Tensor angle = k * mesh[1] + m.phase;
    phi = phi + decay * at::cos(angle);
    phi_x = phi_x - k * decay * at::sin(angle);
    phi_xx = phi_xx - k * k * decay * at::cos(angle);
    phi_xxx = phi_xxx + k * k * k * decay * at::sin(angle);
  }
  const at::Tensor phi_t = nu * phi_xx, phi_xt = nu * phi_xxx;
  field.u = -2.0 * nu * phi_x / phi;
  field.u_x = -2.0 * nu * (phi_xx * phi - phi_x.square()) / phi.square();
  field.u_t = -2.0 * nu * (phi_xt * phi - phi_x * phi_t) / phi.square();
  return field;
}

std::int64_t index_of(const std::vector<WeakTerm>& library, const std::string& name) {
  for (std::size_t j = 0; j < library.size(); ++j)
    if (library[j].name == name) return static_cast<std::int64_t>(j);
  return -1;
}

}  // namespace

TEST(WeakForm, bump_derivatives_match_finite_differences) {
  const at::Tensor s = at::linspace(-0.95, 0.95, 39, at::kDouble);
  const double h = 1e-5;
  for (int m = 1; m <= 4; ++m) {
    const at::Tensor difference = (bhpm::eval::bump_derivative(s + h, 6, m - 1) -
                                   bhpm::eval::bump_derivative(s - h, 6, m - 1)) /
                                  (2 * h);
    EXPECT_LT((bhpm::eval::bump_derivative(s, 6, m) - difference).abs().max().item<double>(),
              1e-5 * (1.0 + difference.abs().max().item<double>()))
        << "derivative " << m;
  }
  // (1 - s^2)^6 and zero outside |s| < 1
  EXPECT_NEAR(bhpm::eval::bump_derivative(at::tensor({0.5}, at::kDouble), 6, 0).item<double>(),
              std::pow(0.75, 6), 1e-15);
  EXPECT_EQ(bhpm::eval::bump_derivative(at::tensor({1.2}, at::kDouble), 6, 2).item<double>(), 0.0);
}

TEST(WeakForm, library_names_the_pointwise_monomials) {
  const std::vector<WeakTerm> library = bhpm::eval::weak_library(3, 2);
  ASSERT_EQ(library.size(), 9U);  // 1 + 4 orders x 2 powers
  EXPECT_EQ(library[0].name, "1");
  EXPECT_GE(index_of(library, "u*u_x"), 0);
  EXPECT_DOUBLE_EQ(library[static_cast<std::size_t>(index_of(library, "u*u_x"))].scale, 0.5);
  EXPECT_GE(index_of(library, "u_xxx"), 0);
  EXPECT_GE(index_of(library, "(u^2)_xx"), 0);
  EXPECT_THROW(bhpm::eval::weak_library(0, 2), std::invalid_argument);
}

namespace {

/// d^m y / dx^m by nested autograd (y elementwise in x).
at::Tensor nth_derivative(at::Tensor y, const at::Tensor& x, int m) {
  for (int k = 0; k < m; ++k)
    y = torch::autograd::grad({y.sum()}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  return y;
}

}  // namespace

TEST(WeakTermExpansion, pointwise_forms_equal_the_derivatives_of_powers_of_a_field) {
  // u = 0.5 + sin x + 0.3 cos 2x; each weak term d^m (u^p)/dx^m (scaled) against nested
  // autograd, from its expansion over the monomials of (u, u_x, u_xx, u_xxx).
  const at::Tensor x = at::linspace(-3.0, 3.0, 41, at::kDouble).requires_grad_(true);
  const at::Tensor u = 0.5 + x.sin() + 0.3 * (2.0 * x).cos();
  std::vector<at::Tensor> derivatives;
  for (int m = 0; m <= 3; ++m) derivatives.push_back(nth_derivative(u, x, m).detach());
  const at::Tensor v = at::stack(derivatives, 1);  // [P, 4]
  const bhpm::pde::TermLibrary library =
      bhpm::pde::make_term_library({"u", "u_x", "u_xx", "u_xxx"}, 3);
  const std::vector<WeakTerm> terms = bhpm::eval::weak_library(3, 3);
  const at::Tensor pointwise =
      at::matmul(library.evaluate(v), bhpm::eval::pointwise_expansions(terms, library).t());
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const WeakTerm& term = terms[k];
    const at::Tensor exact = term.scale * nth_derivative(u.pow(term.power), x, term.order);
    EXPECT_LT((pointwise.select(1, static_cast<std::int64_t>(k)) - exact.detach())
                  .abs()
                  .max()
                  .item<double>(),
              1e-12)
        << term.name;
  }
  const bhpm::pde::TermLibrary short_library = bhpm::pde::make_term_library({"u", "u_x"}, 3);
  EXPECT_THROW(bhpm::eval::pointwise_expansion(
                   terms[static_cast<std::size_t>(index_of(terms, "u_xx"))], short_library),
               std::invalid_argument);
}

TEST(WeakForm, an_exact_burgers_front_gives_its_coefficients_to_quadrature_accuracy) {
  const double nu = 0.1;
  const GridField field = burgers_front(0.3, 0.8, nu, -4.0, 4.0, 0.0, 3.0);
  const std::vector<WeakTerm> library = bhpm::eval::weak_library(2, 2);
  const bhpm::eval::WeakSystem system = bhpm::eval::weak_system(field, library, {1.2, 0.8});
  ASSERT_GT(system.rows(), 50);
  const at::Tensor columns = at::stack({system.columns.select(1, index_of(library, "u*u_x")),
                                        system.columns.select(1, index_of(library, "u_xx"))},
                                       1);
  const at::Tensor xi =
      std::get<0>(at::linalg_lstsq(columns, system.target.unsqueeze(1))).squeeze(1);
  EXPECT_NEAR(xi[0].item<double>(), -1.0, 1e-5);
  EXPECT_NEAR(xi[1].item<double>(), nu, 1e-6);
  // and the equation holds row by row: the residual is quadrature error only
  const at::Tensor residual = system.target - at::mv(columns, at::tensor({-1.0, nu}, at::kDouble));
  EXPECT_LT(residual.abs().max().item<double>(), 1e-6 * system.target.abs().max().item<double>());
}

TEST(WeakForm, scales_of_a_heat_mode_are_its_wavelength_and_decay_time) {
  // u = 1 + sin(k x) exp(-nu k^2 t) over whole periods: ell = 1 / k, tau = 1 / (nu k^2).
  const double k = 2.0, nu = 0.05;
  GridField field;
  field.x = at::arange(64, at::kDouble) * (2 * M_PI / k / 64);
  field.t = at::linspace(0.0, 2.0, 9, at::kDouble);
  const std::vector<at::Tensor> mesh = at::meshgrid({field.t, field.x}, "ij");
  const at::Tensor decay = at::exp(-nu * k * k * mesh[0]);
  field.u = 1.0 + at::sin(k * mesh[1]) * decay;
  field.u_x = k * at::cos(k * mesh[1]) * decay;
  field.u_t = -nu * k * k * at::sin(k * mesh[1]) * decay;
  const bhpm::eval::FieldScales scales = bhpm::eval::field_scales({field});
  EXPECT_NEAR(scales.length, 1.0 / k, 1e-12);
  EXPECT_NEAR(scales.time, 1.0 / (nu * k * k), 1e-9);
}

TEST(WeakFormDistillation, keeps_exactly_the_true_terms_of_exact_solutions) {
  const double nu = 0.1;
  const std::vector<GridField> fields = {
      cole_hopf({{0.5, 1.0, 0.0}, {0.3, 2.0, 1.0}}, nu, -3.0, 3.0, 0.0, 4.0),
      cole_hopf({{0.6, 1.5, 0.5}, {0.2, 0.7, 2.0}}, nu, -4.0, 2.0, 0.0, 3.0),
      cole_hopf({{0.4, 1.2, -1.0}, {0.4, 2.5, 0.3}}, nu, -2.0, 4.0, 1.0, 4.0)};
  const std::vector<WeakTerm> library = bhpm::eval::weak_library(2, 3);
  bhpm::eval::WeakFormOptions options;
  options.samples = 12;
  const bhpm::eval::WeakFormDistillation weak =
      bhpm::eval::weak_form_distillation(fields, library, options);
  EXPECT_TRUE(weak.resampled);
  for (const bhpm::eval::DistilledTerm& term : weak.terms) {
    if (term.name == "u*u_x" || term.name == "u_xx") {
      const double truth = term.name == "u_xx" ? nu : -1.0;
      EXPECT_EQ(term.inclusion, 1.0) << term.name;
      EXPECT_NEAR(term.median, truth, 1e-4 * std::abs(truth)) << term.name;
      EXPECT_LE(term.lower, truth + 1e-4 * std::abs(truth)) << term.name;
      EXPECT_GE(term.upper, truth - 1e-4 * std::abs(truth)) << term.name;
    } else {
      EXPECT_EQ(term.inclusion, 0.0) << term.name;
    }
  }
}

TEST(WeakFormDistillation, refuses_windows_shorter_than_the_fields_own_scale) {
  // ell of the front is about nu / A; a window of 4 ell holds no test function of 2 ell.
  const GridField narrow = burgers_front(0.2, 0.8, 0.1, -0.2, 0.2, 0.0, 1.0, 64, 32);
  const std::vector<WeakTerm> library = bhpm::eval::weak_library(2, 2);
  EXPECT_THROW(bhpm::eval::weak_form_distillation({narrow, narrow}, library, {}),
               bhpm::eval::WeakFormUnfitted);
}

TEST(SystemWeakForm, an_nls_soliton_gives_its_coefficients_to_quadrature_accuracy) {
  // psi = a sech(a (x - c t)) exp(i (c x + (a^2 - c^2) t / 2)) solves
  // i psi_t + 0.5 psi_xx + |psi|^2 psi = 0: u_t = -0.5 v_xx - (u^2 + v^2) v,
  // v_t = 0.5 u_xx + (u^2 + v^2) u for u + i v = psi.
  const double a = 1.2, c = 0.4;
  const at::Tensor x = at::linspace(-8.0, 8.0, 384, at::kDouble);
  const at::Tensor t = at::linspace(0.0, 2.0, 192, at::kDouble);
  const std::vector<at::Tensor> mesh = at::meshgrid({t, x}, "ij");
  const at::Tensor envelope = a / at::cosh(a * (mesh[1] - c * mesh[0]));
  const at::Tensor phase = c * mesh[1] + 0.5 * (a * a - c * c) * mesh[0];
  const std::vector<at::Tensor> fields = {envelope * at::cos(phase), envelope * at::sin(phase)};
  const std::vector<bhpm::eval::ProductWeakTerm> library =
      bhpm::eval::system_weak_library({"u", "v"}, 2, 3);
  const auto column = [&](const std::string& name) {
    for (std::size_t j = 0; j < library.size(); ++j)
      if (library[j].name == name) return static_cast<std::int64_t>(j);
    ADD_FAILURE() << name << " is not in the library";
    return std::int64_t{0};
  };
  // 1; u..u_xx, u*u_x, u^2*u_x, v..v_xx, v*v_x, v^2*v_x; degree 2 and 3 monomials
  EXPECT_EQ(library.size(), 1u + 10u + 7u);
  const std::vector<std::pair<std::vector<std::string>, std::vector<double>>> equations = {
      {{"v_xx", "u^2*v", "v^3"}, {-0.5, -1.0, -1.0}}, {{"u_xx", "u^3", "u*v^2"}, {0.5, 1.0, 1.0}}};
  for (std::int64_t field = 0; field < 2; ++field) {
    const bhpm::eval::WeakSystem system =
        bhpm::eval::product_weak_system({x, t, at::Tensor()}, fields, field, library, {1.5, 0.5});
    ASSERT_GT(system.rows(), 50);
    const auto& [names, truth] = equations[static_cast<std::size_t>(field)];
    std::vector<at::Tensor> chosen;
    for (const std::string& name : names) chosen.push_back(system.columns.select(1, column(name)));
    const at::Tensor xi =
        std::get<0>(at::linalg_lstsq(at::stack(chosen, 1), system.target.unsqueeze(1))).squeeze(1);
    for (std::size_t k = 0; k < names.size(); ++k)
      EXPECT_NEAR(xi[static_cast<std::int64_t>(k)].item<double>(), truth[k], 1e-5) << names[k];
  }
}

TEST(SystemWeakForm, travelling_modes_on_a_plane_give_their_advection_and_diffusion) {
  // u = sum_j A_j exp(-d |k_j|^2 t) sin(k_j . (x - c t) + p_j) solves
  // u_t = -c_x u_x - c_y u_y + d (u_xx + u_yy); three wavevectors keep u_xx, u_xy and u_yy
  // apart, so least squares on the five partials' columns gives (-c_x, -c_y, d, 0, d).
  const double d = 0.1, cx = 0.4, cy = -0.3;
  const bhpm::eval::WeakGrids grids{at::linspace(0.0, 2 * M_PI, 128, at::kDouble),
                                    at::linspace(0.0, 1.0, 64, at::kDouble),
                                    at::linspace(0.0, 2 * M_PI, 120, at::kDouble)};
  const std::vector<at::Tensor> mesh = at::meshgrid({grids.t, grids.y, grids.x}, "ij");
  const std::vector<std::array<double, 4>> modes = {
      {1.0, 1.0, 0.0, 0.3}, {0.7, 0.0, 2.0, 1.1}, {0.5, 1.0, 1.0, -0.4}};  // A, k_x, k_y, p
  at::Tensor u = at::zeros_like(mesh[0]);
  for (const auto& [amplitude, kx, ky, phase] : modes)
    u = u + amplitude * at::exp(-d * (kx * kx + ky * ky) * mesh[0]) *
                at::sin(kx * (mesh[2] - cx * mesh[0]) + ky * (mesh[1] - cy * mesh[0]) + phase);
  const std::vector<bhpm::eval::ProductWeakTerm> library =
      bhpm::eval::system_weak_library({"u"}, 2, 1, 2);
  std::vector<std::string> names;
  for (const auto& term : library) names.push_back(term.name);
  EXPECT_EQ(names, (std::vector<std::string>{"1", "u", "u_x", "u_y", "u_xx", "u_xy", "u_yy"}));
  const bhpm::eval::WeakSystem system =
      bhpm::eval::product_weak_system(grids, {u}, 0, library, {1.0, 0.3});
  ASSERT_GT(system.rows(), 1000);
  EXPECT_EQ(system.centres.size(1), 3);
  const at::Tensor xi =
      std::get<0>(at::linalg_lstsq(system.columns.slice(1, 2), system.target.unsqueeze(1)))
          .squeeze(1);
  const std::vector<double> truth = {-cx, -cy, d, 0.0, d};
  for (std::int64_t j = 0; j < 5; ++j)
    EXPECT_NEAR(xi[j].item<double>(), truth[static_cast<std::size_t>(j)], 1e-5)
        << names[static_cast<std::size_t>(j + 2)];
  EXPECT_THROW(bhpm::eval::product_weak_system({grids.x, grids.t, at::Tensor()}, {u.select(1, 0)},
                                               0, library, {1.0, 0.3}),
               std::invalid_argument);  // u_y on a line
}

TEST(SystemWeakForm, an_oblique_burgers_front_on_a_plane_gives_its_diffusion_and_transport) {
  // u = g(s, t), s = x + y / 2, with g = h / 1.5 and h = c - A tanh(A (s - c t) / (2 D)),
  // D = 1.25 nu, solves u_t = nu (u_xx + u_yy) - u (u_x + u_y): h_t + h h_s = D h_ss. The
  // columns u_xx, u_yy are then parallel, as are u*u_x and u*u_y, so least squares on their
  // sums gives (nu, -1).
  const double nu = 0.2, c = 0.3, amplitude = 0.6, diffusion = 1.25 * nu;
  const bhpm::eval::WeakGrids grids{at::linspace(-3.0, 3.0, 112, at::kDouble),
                                    at::linspace(0.0, 2.0, 64, at::kDouble),
                                    at::linspace(-3.0, 3.0, 104, at::kDouble)};
  const std::vector<at::Tensor> mesh = at::meshgrid({grids.t, grids.y, grids.x}, "ij");
  const at::Tensor s = mesh[2] + 0.5 * mesh[1];
  const at::Tensor u =
      (c - amplitude * at::tanh(amplitude * (s - c * mesh[0]) / (2 * diffusion))) / 1.5;
  const std::vector<bhpm::eval::ProductWeakTerm> library =
      bhpm::eval::system_weak_library({"u"}, 2, 2, 2);
  const auto column_of = [&](const bhpm::eval::WeakSystem& system, const std::string& name) {
    for (std::size_t j = 0; j < library.size(); ++j)
      if (library[j].name == name) return system.columns.select(1, static_cast<std::int64_t>(j));
    ADD_FAILURE() << name << " is not in the library";
    return at::Tensor();
  };
  const bhpm::eval::WeakSystem system =
      bhpm::eval::product_weak_system(grids, {u}, 0, library, {1.0, 0.4});
  ASSERT_GT(system.rows(), 1000);
  const at::Tensor columns = at::stack({column_of(system, "u_xx") + column_of(system, "u_yy"),
                                        column_of(system, "u*u_x") + column_of(system, "u*u_y")},
                                       1);
  const at::Tensor xi =
      std::get<0>(at::linalg_lstsq(columns, system.target.unsqueeze(1))).squeeze(1);
  EXPECT_NEAR(xi[0].item<double>(), nu, 1e-5);
  EXPECT_NEAR(xi[1].item<double>(), -1.0, 1e-5);
}
