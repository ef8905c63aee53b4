#pragma once
/// Evolution equations u_t = L u + N(u, u_x, ...) on periodic domains.
///
/// L = sum_m c_m d^m/dx^m is linear with constant coefficients and is treated exactly by
/// ETDRK4; N is explicit. Built in:
///   burgers               u_t = -u u_x + nu u_xx
///   kdv                   u_t = -u u_x - delta u_xxx
///   heat                  u_t = nu u_xx
///   kuramoto_sivashinsky  u_t = -u u_x - u_xx - u_xxxx
///   general               u_t = sum_m linear[m] d^m u/dx^m + <nonlinear expression>

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

#include "pde/nonlinear_term.h"
#include "util/option_check.h"

namespace bhpm::pde {

struct EquationOptions {
  std::string name = "burgers";
  double nu = 0.1;             ///< viscosity / diffusivity (burgers, heat)
  double delta = 1.0;          ///< dispersion (kdv)
  std::vector<double> linear;  ///< general: c_m of d^m u/dx^m, m = 0, 1, ...
  std::string nonlinear;       ///< general: expression in u, u_x, u_xx, ... ("" for none)
  /// Names fields in error messages ("equation.nu"; a configuration reader's say which file
  /// or --set gave the value).
  util::FieldNames field_names = util::section_fields("equation");
};

struct Equation {
  std::string name;
  std::vector<double> linear;                      ///< c_m, m = 0..
  std::shared_ptr<const NonlinearTerm> nonlinear;  ///< null when N = 0

  /// "u_t = 0.1 u_xx + (-u*u_x)".
  std::string describe() const;
  /// Highest spatial derivative in L or N.
  int order() const;
  /// The right-hand side L u + N at derivatives [K'+1, ...] (row m: d^m u/dx^m, K' >= order()):
  /// sum_m c_m d^m u/dx^m + N, of the shape of one row.
  at::Tensor right_hand_side(const at::Tensor& derivatives) const;
  /// The same at time t (a double scalar, 0-dim, or [B, 1]), for a nonlinear part that
  /// changes in time (NonlinearTerm::evaluate_at).
  at::Tensor right_hand_side(const at::Tensor& derivatives, const at::Tensor& t) const;
};

/// Builds an equation; throws std::invalid_argument naming the field for an unknown name,
/// a non-finite coefficient or an expression that does not parse.
Equation make_equation(const EquationOptions& options);

/// The names make_equation accepts.
const std::vector<std::string>& equation_names();

}  // namespace bhpm::pde
