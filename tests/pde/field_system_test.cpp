// Field systems on periodic boxes (pde/field_system.h, pde/system_solve.h) against
// mathematics: partials of trigonometric fields in two dimensions, linear systems solved to
// rounding (2-D heat and a travelling 2-D wave; the free Schroedinger equation as two
// coupled real fields), ETDRK4's fourth order on the lambda-omega system's plane wave, the
// NLS soliton at the adaptive default, and the refusals.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/pointwise_right_hand_side.h"
#include "pde/real_fft.h"
#include "pde/solution.h"
#include "pde/system_initial_condition.h"
#include "pde/system_solve.h"
#include "pde/system_well_posedness.h"

namespace {

using bhpm::pde::FieldSystem;
using bhpm::pde::FieldSystemOptions;
using bhpm::pde::PeriodicBox;
using bhpm::pde::SystemSolveOptions;

/// Values of f(x, y) on the box [points].
std::vector<double> sample(const PeriodicBox& box, const std::function<double(double, double)>& f) {
  std::vector<double> values;
  for (double y : box.y())
    for (double x : box.x()) values.push_back(f(x, y));
  return values;
}

/// max |a - b| over fields [q, points] at output `k` of a solution.
double max_error_at(const bhpm::pde::SystemSolution& solution, std::int64_t k,
                    const std::vector<double>& exact) {
  double error = 0.0;
  for (std::size_t p = 0; p < exact.size(); ++p)
    error = std::max(error, std::abs(solution.u[k * exact.size() + p] - exact[p]));
  return error;
}

std::vector<double> concatenated(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

FieldSystem general(int dimensions, std::vector<std::string> fields,
                    std::vector<std::string> linear, std::vector<std::string> nonlinear) {
  FieldSystemOptions options;
  options.name = "general";
  options.dimensions = dimensions;
  options.fields = std::move(fields);
  options.linear = std::move(linear);
  options.nonlinear = std::move(nonlinear);
  return bhpm::pde::make_field_system(options);
}

}  // namespace

TEST(PeriodicBox, mixed_partials_of_a_trigonometric_field_are_exact) {
  const PeriodicBox box(0.0, 2 * M_PI, 16, -1.0, 1.0, 12);  // L_y = 2: k_y = pi r'
  const auto u =
      sample(box, [](double x, double y) { return std::sin(2 * x) * std::cos(3 * M_PI * y); });
  // u_xyy = 2 cos(2x) * (-(3 pi)^2 cos(3 pi y)).
  const auto u_xyy = sample(box, [](double x, double y) {
    return 2 * std::cos(2 * x) * -(9 * M_PI * M_PI) * std::cos(3 * M_PI * y);
  });
  const bhpm::pde::RealFft fft(box.shape());
  ASSERT_EQ(fft.spectrum_size(), box.modes());
  bhpm::pde::FftSpectrum v(static_cast<std::size_t>(box.modes()));
  fft.forward(u.data(), v.data());
  for (std::int64_t m = 0; m < box.modes(); ++m) v[m] *= box.partial_symbol(m, 1, 2);
  std::vector<double> got(u.size());
  fft.backward(v.data(), got.data());
  for (std::size_t p = 0; p < got.size(); ++p) EXPECT_NEAR(got[p], u_xyy[p], 1e-10) << p;
}

TEST(SystemSolve, two_dimensional_heat_and_a_travelling_wave_are_exact_to_rounding) {
  // advection_diffusion_2d: u = exp(-nu |k|^2 t) sin(k . (x - a t)), k = (1, 2) on [0, 2 pi)^2.
  const PeriodicBox box(0.0, 2 * M_PI, 16, 0.0, 2 * M_PI, 16);
  for (const double a_x : {0.0, 1.0}) {
    FieldSystemOptions options;
    options.name = "advection_diffusion_2d";
    options.parameters = {{"nu", 0.1}, {"a_x", a_x}, {"a_y", a_x == 0.0 ? 0.0 : -0.5}};
    const FieldSystem system = bhpm::pde::make_field_system(options);
    const double a_y = options.parameters["a_y"];
    SystemSolveOptions solve;
    solve.t_end = 1.0;
    solve.output_dt = 0.5;
    solve.dt = 0.25;
    solve.tolerance = 0.0;
    const auto solution = bhpm::pde::solve_field_system(
        box, system, sample(box, [](double x, double y) { return std::sin(x + 2 * y); }), solve);
    const double t = 1.0;
    const auto exact = sample(box, [&](double x, double y) {
      return std::exp(-0.5 * t) * std::sin((x - a_x * t) + 2 * (y - a_y * t));
    });
    EXPECT_LT(max_error_at(solution, 2, exact), 1e-13) << "a_x = " << a_x;
  }
}

TEST(SystemSolve, coupled_real_fields_of_the_free_schroedinger_equation_are_exact) {
  // psi_t = 0.5 i psi_xx as u_t = -0.5 v_xx, v_t = 0.5 u_xx: the coupling is stepped exactly.
  // psi = exp(i (k x - k^2 t / 2)), k = 3 on [0, 2 pi).
  const PeriodicBox box(0.0, 2 * M_PI, 32);
  const FieldSystem system = general(1, {"u", "v"}, {"-0.5*v_xx", "0.5*u_xx"}, {"", ""});
  SystemSolveOptions solve;
  solve.t_end = 2.0;
  solve.output_dt = 1.0;
  solve.dt = 1.0;
  solve.tolerance = 0.0;
  const auto at = [&](double t, bool imaginary) {
    return sample(box, [&](double x, double) {
      const double phase = 3 * x - 4.5 * t;
      return imaginary ? std::sin(phase) : std::cos(phase);
    });
  };
  const auto solution =
      bhpm::pde::solve_field_system(box, system, concatenated(at(0, false), at(0, true)), solve);
  EXPECT_LT(max_error_at(solution, 2, concatenated(at(2, false), at(2, true))), 1e-12);
}

TEST(SystemSolve, lambda_omega_plane_wave_converges_at_fourth_order) {
  // w = u + i v = a exp(i (Omega t - x - y)) with a^2 = 1 - 2 d and Omega = -beta a^2 solves
  // the lambda-omega system exactly; its cubic terms are stepped explicitly.
  const double d = 0.1, beta = 1.0, a = std::sqrt(1 - 2 * d), omega = -beta * a * a;
  FieldSystemOptions options;
  options.name = "lambda_omega";
  const FieldSystem system = bhpm::pde::make_field_system(options);
  const PeriodicBox box(0.0, 2 * M_PI, 16, 0.0, 2 * M_PI, 16);
  const auto wave = [&](double t) {
    return concatenated(
        sample(box, [&](double x, double y) { return a * std::cos(omega * t - x - y); }),
        sample(box, [&](double x, double y) { return a * std::sin(omega * t - x - y); }));
  };
  std::vector<double> errors;
  for (const double dt : {0.2, 0.1, 0.05}) {
    SystemSolveOptions solve;
    solve.t_end = 4.0;
    solve.output_dt = 4.0;
    solve.dt = dt;
    solve.tolerance = 0.0;
    errors.push_back(
        max_error_at(bhpm::pde::solve_field_system(box, system, wave(0), solve), 1, wave(4.0)));
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    EXPECT_GT(order, 3.7) << "errors " << errors[i - 1] << " -> " << errors[i];
    EXPECT_LT(order, 4.4) << "errors " << errors[i - 1] << " -> " << errors[i];
  }
}

namespace {

/// i psi_t + 0.5 psi_xx + |psi|^2 psi = 0: psi = eta sech(eta (x - c t)) exp(i (c x + (eta^2 -
/// c^2) t / 2)), eta = 1, c = 0.5, as [u; v] on `box`.
std::vector<double> soliton_state(const PeriodicBox& box, double t) {
  const double eta = 1.0, c = 0.5;
  const auto part = [&](bool imaginary) {
    return sample(box, [&](double x, double) {
      const double envelope = eta / std::cosh(eta * (x - c * t));
      const double phase = c * x + 0.5 * (eta * eta - c * c) * t;
      return envelope * (imaginary ? std::sin(phase) : std::cos(phase));
    });
  };
  return concatenated(part(false), part(true));
}

FieldSystem built_in_nls() {
  FieldSystemOptions options;
  options.name = "nls";
  return bhpm::pde::make_field_system(options);
}

SystemSolveOptions soliton_solve_options() {
  SystemSolveOptions solve;
  solve.t_end = 4.0;
  solve.output_dt = 1.0;
  solve.dt = 0.1;
  return solve;
}

}  // namespace

TEST(SystemSolve, nls_soliton_within_1e_8_at_the_default_tolerance) {
  const PeriodicBox box(-25.0, 25.0, 512);
  const auto solution = bhpm::pde::solve_field_system(box, built_in_nls(), soliton_state(box, 0),
                                                      soliton_solve_options());
  EXPECT_LT(max_error_at(solution, 4, soliton_state(box, 4.0)), 1e-8);
  EXPECT_GT(solution.steps, 0);
}

// The nonlinear parts given as code (how a learned operator is solved) step exactly as the
// same parts written as expressions.
TEST(SystemSolve, a_nonlinear_part_given_as_code_solves_as_its_expression) {
  const PeriodicBox box(-25.0, 25.0, 512);
  FieldSystem linear_only = built_in_nls();
  for (auto& equation : linear_only.equations) equation.nonlinear.clear();
  bhpm::pde::PointwiseNonlinearity cubic;
  cubic.partials = {{0, 0, 0}, {1, 0, 0}};
  cubic.evaluate = [](const std::vector<const double*>& values, std::int64_t points,
                      const std::vector<double*>& out) {
    for (std::int64_t p = 0; p < points; ++p) {
      const double u = values[0][p], v = values[1][p], a = u * u + v * v;
      out[0][p] = -a * v;
      out[1][p] = a * u;
    }
  };
  const auto expressions = bhpm::pde::solve_field_system(box, built_in_nls(), soliton_state(box, 0),
                                                         soliton_solve_options());
  const auto code = bhpm::pde::solve_field_system(box, linear_only, soliton_state(box, 0),
                                                  soliton_solve_options(), {}, &cubic);
  ASSERT_EQ(code.u.size(), expressions.u.size());
  double difference = 0.0;
  for (std::size_t k = 0; k < code.u.size(); ++k)
    difference = std::max(difference, std::abs(code.u[k] - expressions.u[k]));
  EXPECT_LT(difference, 1e-12);
  EXPECT_LT(max_error_at(code, 4, soliton_state(box, 4.0)), 1e-8);
  EXPECT_THROW(bhpm::pde::solve_field_system(box, built_in_nls(), soliton_state(box, 0),
                                             soliton_solve_options(), {}, &cubic),
               std::invalid_argument);
}

// pde/system_well_posedness.h against the symbols: on [0, 2 pi) with 32 points the 2/3 rule
// keeps |k| <= 10. Forward heat gains nothing; backward heat u_t = -0.1 u_xx gains
// 0.1 * 100 * t_end e-folds at k = 10 and needs a = 0.1 - ln(10) / (t_end 100), after which
// its growth is ln(10) exactly; NLS's dispersion (eigenvalues +-0.5 i k^2) gains nothing; in
// 2-D the lap added shifts k_y's waves as much. The long waves that u_t = -0.5 v_xx - 2 v +
// 0.1 u, v_t = 0.5 u_xx grow (at about k sqrt(1 - k^2 / 4), NLS's modulational instability
// about a constant state) are physics: its derivative terms alone only disperse.
TEST(SystemWellPosedness, growth_and_repair_follow_the_symbols) {
  const double t_end = 2.0, pi = 3.141592653589793;
  const PeriodicBox line(0.0, 2.0 * pi, 32);
  const auto check = [&](const PeriodicBox& box, const FieldSystem& system) {
    return bhpm::pde::system_well_posedness(bhpm::pde::SystemEtdrk4(box, system), t_end, 10.0);
  };
  const auto forward = check(line, general(1, {"w"}, {"0.1*w_xx"}, {""}));
  EXPECT_NEAR(forward.growth, -0.1 * t_end, 1e-12);  // the slowest wave, k = 1
  EXPECT_EQ(forward.diffusion, 0.0);
  const FieldSystem backward = general(1, {"w"}, {"-0.1*w_xx"}, {""});
  const auto ill = check(line, backward);
  EXPECT_NEAR(ill.growth, 0.1 * 100.0 * t_end, 1e-10);
  EXPECT_NEAR(ill.diffusion, 0.1 - std::log(10.0) / (t_end * 100.0), 1e-12);
  const auto repaired = check(line, bhpm::pde::with_added_diffusion(backward, ill.diffusion));
  EXPECT_NEAR(repaired.growth, std::log(10.0), 1e-10);
  EXPECT_LT(repaired.diffusion, 1e-15);  // 0 but for rounding
  const auto dispersive = check(line, general(1, {"u", "v"}, {"-0.5*v_xx", "0.5*u_xx"}, {"", ""}));
  EXPECT_NEAR(dispersive.growth, 0.0, 1e-12);
  EXPECT_EQ(dispersive.diffusion, 0.0);
  const PeriodicBox long_box(0.0, 10.0, 64);  // k = 2 pi n / 10: no entry at k = 2
  const auto unstable =
      check(long_box, general(1, {"u", "v"}, {"-0.5*v_xx - 2*v + 0.1*u", "0.5*u_xx"}, {"", ""}));
  EXPECT_NEAR(unstable.growth, 0.0, 1e-12);
  EXPECT_EQ(unstable.diffusion, 0.0);
  const PeriodicBox square(0.0, 2.0 * pi, 32, 0.0, 2.0 * pi, 32);
  const FieldSystem backward_2d = general(2, {"w"}, {"-0.1*w_yy"}, {""});
  const auto ill_2d = check(square, backward_2d);
  EXPECT_NEAR(ill_2d.diffusion, 0.1 - std::log(10.0) / (t_end * 100.0), 1e-12);
  EXPECT_NEAR(check(square, bhpm::pde::with_added_diffusion(backward_2d, ill_2d.diffusion)).growth,
              std::log(10.0), 1e-10);
}

TEST(SystemSolve, a_blow_up_is_reported_with_its_time_and_field) {
  // u_t = u^2 from u = 1 blows up at t = 1.
  const PeriodicBox box(0.0, 1.0, 4);
  const FieldSystem system = general(1, {"w"}, {}, {"w^2"});
  SystemSolveOptions solve;
  solve.t_end = 2.0;
  solve.output_dt = 0.1;
  solve.dt = 0.01;
  try {
    bhpm::pde::solve_field_system(box, system, std::vector<double>(4, 1.0), solve);
    FAIL() << "no divergence reported";
  } catch (const bhpm::pde::SolverDivergence& error) {
    EXPECT_LE(error.time_reached(), 1.0);
    EXPECT_NE(std::string(error.what()).find("max|w|"), std::string::npos) << error.what();
  }
}

TEST(FieldSystem, refuses_what_it_cannot_solve_naming_the_field) {
  const auto message = [](const std::function<void()>& make) {
    try {
      make();
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("(nothing thrown)");
  };
  FieldSystemOptions unknown;
  unknown.name = "lambda_omega";
  unknown.parameters = {{"gamma", 1.0}};
  EXPECT_NE(message([&] { bhpm::pde::make_field_system(unknown); }).find("system.gamma"),
            std::string::npos);
  EXPECT_NE(message([] { general(1, {"u"}, {"u_y"}, {""}); }).find("system.linear[0]"),
            std::string::npos);
  EXPECT_NE(message([] { general(1, {"u"}, {"0.1*u_xx + u*u_x"}, {""}); }).find("is not linear"),
            std::string::npos);
  EXPECT_NE(message([] { general(1, {"u"}, {"u_xx + 1"}, {""}); }).find("is not linear"),
            std::string::npos);
  EXPECT_NE(message([] {
              general(2, {"u", "u"}, {}, {"u", "u"});
            }).find("repeats"),
            std::string::npos);
  EXPECT_NE(message([] { general(1, {"u"}, {}, {"u*q_x"}); }).find("system.nonlinear[0]"),
            std::string::npos);
  // u_t = v_xx, v_t = 0: L(k) = [[0, -k^2], [0, 0]] has one eigenvector.
  const FieldSystem defective = general(1, {"u", "v"}, {"v_xx", ""}, {"", "0"});
  SystemSolveOptions solve;
  EXPECT_NE(message([&] {
              bhpm::pde::solve_field_system(PeriodicBox(0.0, 1.0, 8), defective,
                                            std::vector<double>(16, 0.0), solve);
            }).find("no well-conditioned eigenvectors"),
            std::string::npos);
}

TEST(FieldSystem, reads_the_coefficients_of_a_linear_part_off_its_expression) {
  FieldSystemOptions options;
  options.name = "lambda_omega";
  options.parameters = {{"d", 0.25}};
  const FieldSystem system = bhpm::pde::make_field_system(options);
  ASSERT_EQ(system.fields, (std::vector<std::string>{"u", "v"}));
  std::map<std::string, double> coefficients;
  for (const auto& term : system.equations[1].linear)
    coefficients[system.name_of(term.partial)] = term.coefficient;
  EXPECT_EQ(coefficients,
            (std::map<std::string, double>{{"v", 1.0}, {"v_xx", 0.25}, {"v_yy", 0.25}}));
  EXPECT_EQ(system.describe().substr(0, 37), "u_t = u + 0.25 u_xx + 0.25 u_yy + (-(");
}

TEST(FieldSystem, right_hand_side_at_given_partials_is_the_equation) {
  FieldSystemOptions options;  // nls: u_t = -0.5 v_xx - (u^2+v^2) v, v_t = 0.5 u_xx + (u^2+v^2) u
  const FieldSystem nls = make_field_system(options);
  const std::vector<Partial> inputs = nls.expression_partials(2);      // u, u_x, u_xx, v, v_x, v_xx
  const std::vector<double> rows = {0.3, -1.0, 2.0,  -0.7, 0.4,  5.0,  //
                                    1.1, 0.2,  -3.0, 0.5,  -2.0, 0.25};
  for (std::size_t r = 0; r < 2; ++r) {
    const double* v = rows.data() + 6 * r;
    const double a = v[0] * v[0] + v[3] * v[3];
    EXPECT_NEAR(right_hand_side_at(nls, 0, inputs, rows)[r], -0.5 * v[5] - a * v[3], 1e-14);
    EXPECT_NEAR(right_hand_side_at(nls, 1, inputs, rows)[r], 0.5 * v[2] + a * v[0], 1e-14);
  }
  try {
    right_hand_side_at(nls, 0, nls.expression_partials(1), {0.3, -1.0, -0.7, 0.4});
    FAIL() << "u_t reads v_xx, which order-1 inputs lack";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("the true u_t reads v_xx"), std::string::npos)
        << error.what();
  }
}

TEST(SystemInitialCondition, a_2d_gp_sample_has_the_kernels_variance_and_correlation) {
  // Monte Carlo over 400 samples of 16 x 16 points: the pointwise variance s^2 and the
  // correlation at a lag of one period / 4 along x, k_x(L/4) / s^2 = exp(-2 sin^2(pi/4) / l^2).
  const PeriodicBox box(0.0, 4.0, 16, 0.0, 4.0, 16);
  const bhpm::pde::PeriodicGpOptions gp{0.5, 1.0};
  double variance = 0.0, lagged = 0.0;
  const int samples = 400;
  for (int s = 0; s < samples; ++s) {
    const auto u = bhpm::pde::sample_periodic_gp(box, gp, 1000 + s);
    for (std::int64_t p = 0; p < box.points(); ++p) {
      const std::int64_t shifted = (p / 16) * 16 + (p % 16 + 4) % 16;
      variance += u[p] * u[p];
      lagged += u[p] * u[shifted];
    }
  }
  const double count = samples * 256.0;
  variance /= count;
  lagged /= count;
  // Points of one sample are correlated, so the estimates' spread is that of 400 box averages:
  // measured 1 % (variance) and 0.015 (correlation) over three sets of seeds.
  EXPECT_NEAR(variance, 0.25, 0.25 * 0.05);
  EXPECT_NEAR(lagged / 0.25, std::exp(-2 * 0.5 / 1.0), 0.06);
}
