#pragma once
/// The weak form of u_t = sum_j c_j theta_j(u) on fields sampled on grids (docs/distillation.md,
/// "Weak-form distillation"; Messenger and Bortz 2021, "Weak SINDy for partial differential
/// equations"). A test function phi(x, t) with compact support inside an experiment's
/// window, multiplied into the equation and integrated by parts, moves every derivative
/// off u (the boundary terms vanish with phi's derivatives at the support's edge):
///   < phi, u_t >             = - < phi_t, u >,
///   < phi, d^m (u^p)/dx^m >  = (-1)^m < d^m phi/dx^m, u^p >,
/// with <g, h> the grid sum of g h dx dt. A column needs u alone, never a derivative of
/// it, so a fitted field whose derivatives come out shrunk (a leaf fitted to noisy data:
/// its u_xx is damped while u is not) does not bias the coefficients.
///
/// The library: the constant, and d^m (u^p)/dx^m for m = 0..K, p = 1..d, except that
/// m = 1 is scaled by 1/p so that it is the monomial u^(p-1) u_x of the pointwise library
/// (pde/term_library.h): "u_xx", "u*u_x" = (u^2)_x / 2, "u^2*u_x"; the others are named
/// "u^2" (m = 0) and "(u^2)_xx" (m >= 2, p >= 2).
///
/// Test functions: phi(x, t) = psi((x - x_c)/a) psi((t - t_c)/b) with
///   psi(s) = (1 - s^2)^q on |s| < 1, 0 elsewhere,  q = K + 3,
/// so that psi's derivatives up to order K + 2 vanish at |s| = 1 and the grid sum of a
/// column is an accurate quadrature. Centres lie on a lattice of spacing a/8 by b/8 (at
/// least a grid step) with every support inside the window: x_c in [x_0 + a, x_n - a],
/// t_c in [t_0 + b, t_T - b].

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "pde/grid_field.h"

namespace bhpm::eval {

/// theta = d^m (u^p)/dx^m x scale; the constant is m = 0, p = 0.
struct WeakTerm {
  std::string name;
  int order = 0;       ///< m
  int power = 0;       ///< p
  double scale = 1.0;  ///< 1/p for m = 1, else 1
};

/// The constant, then for m = 0..max_order the powers p = 1..degree. Throws
/// std::invalid_argument unless max_order >= 1 and 1 <= degree <= 5.
std::vector<WeakTerm> weak_library(int max_order, int degree);

/// The half-widths of the test functions: a in x, b in t.
struct TestFunctionWidths {
  double space = 0;
  double time = 0;
};

/// psi^(m)(s) for s of any shape: the m-th derivative of (1 - s^2)^power on |s| < 1, zero
/// elsewhere (double).
at::Tensor bump_derivative(const at::Tensor& s, int power, int m);

/// The rows of one experiment's weak system, one per test function (t_c slowest):
/// target [R] = -<phi_t, u>, columns [R, J] = term j's weak column, centres [R, 2] = (x_c,
/// t_c). R = 0 when no support fits in the window.
struct WeakSystem {
  at::Tensor target;
  at::Tensor columns;
  at::Tensor centres;
  std::int64_t rows() const { return target.size(0); }
};

/// Throws std::invalid_argument unless the field's grids are uniform with >= 2 points, u is
/// [T, n] and finite, and the widths are positive.
WeakSystem weak_system(const pde::GridField& field, const std::vector<WeakTerm>& library,
                       const TestFunctionWidths& widths);

/// theta = d^m/dx^m d^l/dy^l (prod_k u_k^{e_k}) x scale, over the fields of a system
/// (exponents [<= q]; all zero: the constant). A one-field WeakTerm is exponents {p}, l = 0.
struct ProductWeakTerm {
  std::string name;
  int order = 0;               ///< m
  std::vector<int> exponents;  ///< e_k per field
  double scale = 1.0;
  int y_order = 0;  ///< l (0 in one space dimension)
};

/// The shared uniform grids of a system's fields: x [n], t [T], and y [n_y] on a plane
/// (undefined on a line).
struct WeakGrids {
  at::Tensor x;
  at::Tensor t;
  at::Tensor y;
};

/// The weak system of field `target` of q fields u_k on `grids`: [T, n] on a line, [T, n_y,
/// n] on a plane. On a plane the test functions are
///   phi(x, y, t) = psi((x - x_c)/a) psi((y - y_c)/a) psi((t - t_c)/b),
/// the same half-width a in x and y, centred on a lattice every a/8 (at least a grid step)
/// in each; <g, h> is the grid sum of g h dx dy dt, and a term's column is
/// (-1)^(m + l) <d^m/dx^m d^l/dy^l phi, prod_k u_k^{e_k}> x scale. target [R] =
/// -<phi_t, u_target>, columns [R, J] as weak_system's (weak_system is this with one field
/// on a line); centres [R, 3] = (x_c, y_c, t_c) on a plane, with t_c slowest and x_c fastest.
/// Same errors as weak_system, and for a target that is not a field or a term with l > 0
/// on a line.
WeakSystem product_weak_system(const WeakGrids& grids, const std::vector<at::Tensor>& fields,
                               std::int64_t target, const std::vector<ProductWeakTerm>& library,
                               const TestFunctionWidths& widths);

/// The fields' own scales (the width rule of eval/weak_form_distillation.h), pooled over
/// every grid point of every field, with u' = u less its spatial mean at each time:
///   length = RMS(u') / RMS(u_x),  time = RMS(u') / RMS(u_t).
/// Throws std::invalid_argument when u_x or u_t is zero everywhere (no scale to read).
struct FieldScales {
  double length = 0;
  double time = 0;
};
FieldScales field_scales(const std::vector<pde::GridField>& fields);

/// Sums of squares over the same grid points: of u', of the slope (u_x^2 on a line, the
/// mean over directions (u_x^2 + u_y^2) / 2 on a plane) and of u_t.
struct FieldSquares {
  double deviation = 0;
  double slope = 0;
  double rate = 0;
};

/// The scales of field_scales from the sums: length = sqrt(deviation / slope), time =
/// sqrt(deviation / rate). Same error.
FieldScales field_scales(const FieldSquares& squares);

}  // namespace bhpm::eval
