#pragma once
/// Systems of fields u = (u_1, .., u_q) on periodic boxes of one or two dimensions
/// (pde/periodic_box.h):
///   d u_i / dt = sum_j L_ij u_j + N_i(u and its partials),
/// L_ij = sum c d^a/dx^a d^b/dy^b with constant coefficients (treated exactly by
/// pde/system_etdrk4.h, coupled fields included), N_i a pointwise expression
/// (pde/expression.h) in every field and its partials up to order kMaxNonlinearOrder, named
/// as partial_name says ("v_xy"). The linear part is written as an expression too
/// ("0.1*u_xx + 0.1*u_yy + u", partials up to kMaxLinearOrder); its coefficients are read
/// off by evaluating it at unit vectors, and it is refused unless it is linear. Built in:
///   nls                     i psi_t + 0.5 psi_xx + |psi|^2 psi = 0 as psi = u + i v (1-D):
///                           u_t = -0.5 v_xx - (u^2+v^2) v, v_t = 0.5 u_xx + (u^2+v^2) u
///   lambda_omega            u_t = d lap u + (1 - A) u + beta A v,
///                           v_t = d lap v - beta A u + (1 - A) v, A = u^2 + v^2 (2-D;
///                           lambda(A) = 1 - A, omega(A) = -beta A)
///   burgers_2d              u_t = nu lap u - u (u_x + u_y) (2-D)
///   advection_diffusion_2d  u_t = nu lap u - a_x u_x - a_y u_y (2-D)
///   general                 fields, dimensions, per field linear coefficients and N_i
///   unknown                 fields and dimensions only: a system learned from a user's
///                           measurements, whose equations nobody gives (no simulation)

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/option_check.h"

namespace bhpm::pde {

/// The highest order of a partial that a nonlinear expression may read.
constexpr int kMaxNonlinearOrder = 4;
/// The highest order of a partial in a linear part.
constexpr int kMaxLinearOrder = 6;

/// d^a/dx^a d^b/dy^b of field `field` (an index into FieldSystem::fields).
struct Partial {
  std::int64_t field = 0;
  int x_order = 0;
  int y_order = 0;
  int order() const { return x_order + y_order; }
};

/// "u" (order 0), "u_x", "v_xxy": the field's name, '_', a x's and b y's.
std::string partial_name(const std::string& field, const Partial& partial);

struct LinearTerm {
  Partial partial;
  double coefficient = 0.0;
};

/// The right-hand side of one field: sum of linear terms + nonlinear ("" for none).
struct FieldEquation {
  std::vector<LinearTerm> linear;
  std::string nonlinear;
};

struct FieldSystem {
  std::string name;
  int dimensions = 1;
  std::vector<std::string> fields;           ///< [q] names
  std::vector<FieldEquation> equations;      ///< [q]
  std::map<std::string, double> parameters;  ///< a built-in system's parameters

  std::int64_t size() const { return static_cast<std::int64_t>(fields.size()); }
  /// False for the "unknown" system: its equations (empty) are not the truth.
  bool has_equations() const { return name != "unknown"; }
  /// "u_t = -0.5 v_xx + (-(u^2+v^2)*v); v_t = ..."; "unknown equations of u, v in 1-D".
  std::string describe() const;
  /// Every name an expression may read: each field's partials up to `max_order` (in one
  /// dimension without y), fields in order, then by order.
  std::vector<Partial> expression_partials(int max_order = kMaxNonlinearOrder) const;
  std::string name_of(const Partial& partial) const {
    return partial_name(fields[partial.field], partial);
  }
};

/// A system as configured: `name` one of field_system_names(); `parameters` override a
/// built-in system's (field_system_parameters); "general" reads the rest.
struct FieldSystemOptions {
  std::string name = "nls";
  std::map<std::string, double> parameters;
  int dimensions = 1;                  ///< general and unknown: 1 or 2
  std::vector<std::string> fields;     ///< general and unknown: [q] names
  std::vector<std::string> linear;     ///< general: [q] linear expressions ("" for none)
  std::vector<std::string> nonlinear;  ///< general: [q] expressions ("" for none)
  util::FieldNames field_names = util::section_fields("system");
};

/// A built-in system's parameters and their defaults (nls: none; lambda_omega: d = 0.1,
/// beta = 1; burgers_2d: nu = 0.1; advection_diffusion_2d: nu = 0.1, a_x = 1, a_y = 0.5;
/// general: none).
std::map<std::string, double> field_system_parameters(const std::string& name);

/// Builds a system; throws std::invalid_argument naming the field for an unknown name or
/// parameter, a non-finite coefficient, a field name that is not a plain identifier or
/// repeats, an expression that does not parse, or a linear part that is not linear.
FieldSystem make_field_system(const FieldSystemOptions& options);

/// Throws std::invalid_argument naming `where` unless `fields` holds at least one name and
/// every name is letters and digits starting with a letter, none of x, y, t, e, pi, none
/// repeated.
void require_field_names(const std::vector<std::string>& fields, const std::string& where);

/// The names make_field_system accepts.
const std::vector<std::string>& field_system_names();

}  // namespace bhpm::pde
