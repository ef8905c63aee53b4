#pragma once
/// Boundary conditions on a Chebyshev grid by rectangular collocation (Driscoll and Hale
/// 2016, "Rectangular spectral collocation"; docs/boundary-conditions.md, "The method").
///
/// Of the n + 1 Chebyshev-Gauss-Lobatto points, the r = r_left + r_right nodes next to the
/// ends (x_0 .. x_{r_left - 1} and x_n .. x_{n - r_right + 1}) are dependent, the other
/// n_i = n + 1 - r are the unknowns. The conditions B u = g(t) (row k: sum_m w_m D^(m) at
/// its end) are solved for the dependent values,
///   u_dep = B_dep^{-1} (g - B_ind u_ind),   so   u = P u_ind + Q g  on all nodes,
/// and the derivatives are d^m u = A_m u_ind + C_m g with A_m = D^(m) P, C_m = D^(m) Q.
/// The equation u_t = F is not collocated at the unknowns' nodes (that "row deletion"
/// leaves KdV's third derivative with eigenvalues of real part up to +6e4 at n = 96 on
/// [-15, 15]: unstable) but at the n_i Chebyshev points of the first kind, through the
/// interpolation R [n_i, n+1] from the grid to them: R (P u_ind' + Q g') = R F(u), so
///   u_ind' = S F(u) - T g'(t),   S = (R P)^{-1} R [n_i, n+1],   T = S Q [n_i, r],
/// an ODE whose solution meets the conditions at every time exactly.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"

namespace bhpm::pde {

/// B [r, n+1]: row k is sum_m w_m D^(m)[end, :] of condition k, the left end's conditions
/// first, then the right's, in the order given (B u = g(t) are the conditions).
at::Tensor condition_matrix(const ChebyshevGrid& grid, const BoundaryConditions& conditions);

/// The data g(t) of each of one end's conditions at times `t` [T]: [C, T], double, in the
/// order given (the right-hand sides of B u = g at those times).
at::Tensor condition_data(const std::vector<BoundaryCondition>& end, const at::Tensor& t);

class BoundaryElimination {
 public:
  /// Derivatives up to `max_order` (>= every condition's order). Throws
  /// std::invalid_argument when the conditions leave fewer than 2 unknowns or are not
  /// independent (B_dep singular).
  BoundaryElimination(const ChebyshevGrid& grid, const BoundaryConditions& conditions,
                      int max_order);

  /// n_i.
  std::int64_t unknowns() const { return independent_.size(0); }
  /// Indices of the unknowns among the grid's points [n_i], int64, ascending.
  const at::Tensor& independent() const { return independent_; }
  /// g(t) [r]: left conditions first, then right, in the order given.
  at::Tensor values(double t) const;
  /// g'(t) [r] by the fourth-order central difference with step 1e-4 max(1, |t|) (g is
  /// read slightly before 0 and after t).
  at::Tensor value_rates(double t) const;
  /// (u, u_x, .., d^K u) on all n + 1 points [K+1, n+1] from u_ind [n_i] and g [r].
  at::Tensor derivatives(const at::Tensor& unknowns, const at::Tensor& values) const;
  /// u on all n + 1 points [n+1] from u_ind [n_i] and g [r].
  at::Tensor field(const at::Tensor& unknowns, const at::Tensor& values) const;
  /// u_ind' [n_i] = S F - T g' from F [n+1] on all points and g' [r].
  at::Tensor rates(const at::Tensor& right_hand_side, const at::Tensor& value_rates) const;
  /// A [K+1, n+1, n_i] (derivatives() = A u_ind + C g).
  const at::Tensor& derivative_operators() const { return a_; }
  /// S [n_i, n+1] (rates() = S F - T g').
  const at::Tensor& collocation() const { return s_; }

 private:
  std::vector<BoundaryValue> values_;
  at::Tensor independent_;
  at::Tensor p_, q_;  ///< [n+1, n_i], [n+1, r]
  at::Tensor a_, c_;  ///< [K+1, n+1, n_i], [K+1, n+1, r]
  at::Tensor s_, t_;  ///< [n_i, n+1], [n_i, r]
};

}  // namespace bhpm::pde
