#pragma once
/// The candidate terms of a distilled equation (docs/distillation.md, "Distilled equations"):
/// every monomial of the root's inputs v = (u, u_x, .., d^K u/dx^K) up to a total degree d,
///   theta_j(v) = prod_m v_m^{e_jm},   sum_m e_jm <= d,
/// the constant (e = 0) first, then by degree, within a degree in the lexicographic order of
/// the variables' indices (u*u before u*u_x before u_x*u_x); J = C(D + d, d) terms for
/// D = K + 1 variables (D = 3, d = 3: 20 terms).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bhpm::pde {

struct TermLibrary {
  std::vector<std::string> variables;       ///< the D names of v ("u", "u_x", ..)
  int degree = 0;                           ///< d, the largest total degree
  std::vector<std::vector<int>> exponents;  ///< e_j [J][D]
  std::vector<std::string> names;           ///< "1", "u", "u*u_x", "u^2*u_xx", .. [J]

  std::int64_t size() const { return static_cast<std::int64_t>(names.size()); }
  /// Theta [P, J] with Theta_pj = theta_j(v_p), for v [P, D] (double).
  at::Tensor evaluate(const at::Tensor& v) const;
  /// The index of the term named `name`, or -1.
  std::int64_t find(const std::string& name) const;
};

/// The library of the monomials of `variables` (D >= 1 names) up to total degree `degree`
/// in [1, 5]; throws std::invalid_argument naming the rule otherwise.
TermLibrary make_term_library(const std::vector<std::string>& variables, int degree);

}  // namespace bhpm::pde
