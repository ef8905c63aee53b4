#pragma once
/// Linear boundary conditions at the two ends of an interval [a, b], and how many each end
/// needs (docs/boundary-conditions.md).
///
/// A condition at one end is sum_m w_m d^m u/dx^m = g(t) there: Dirichlet u = g, Neumann
/// u_x = g, Robin alpha u + beta u_x = g, or any derivative d^m u = g (the second condition
/// of an end that needs two: KdV's right end, both ends of Kuramoto-Sivashinsky).
///
/// The count. For u_t = F(u, u_x, ..., d^K u) with c = dF/d(d^K u) at an end:
///   K even: K/2 conditions at each end, and c must have the sign of damping
///     ((-1)^(K/2 + 1) c > 0: c > 0 for diffusion, c < 0 for u_t = -u_xxxx); the other
///     sign is backward diffusion, ill-posed whatever the conditions;
///   K odd: with s = (-1)^((K+1)/2) c, an end gets (K+1)/2 conditions where the leading
///     term carries information into the domain (s > 0 at the left end, s < 0 at the right)
///     and (K-1)/2 where it carries it out: for K = 1, s = -c is the advection speed, so
///     the inflow end gets one and the outflow end none; for KdV's u_t = -u_xxx (c = -1)
///     the left end gets one and the right end two.
/// These are the counts for which the energy estimate of the leading term closes (for
/// u_t = -u_xxx on [a, b], d/dt int u^2/2 = -u_x(a)^2/2 with u(a) = u(b) = u_x(b) = 0).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bhpm::pde {

/// g(t).
using BoundaryValue = std::function<double(double t)>;

struct BoundaryCondition {
  std::vector<double> weights;  ///< w_m on d^m u/dx^m, m = 0..; some w_m != 0
  BoundaryValue value;          ///< g(t)
  std::string value_text;       ///< how g was given ("0", "sin(t)"), for messages

  static BoundaryCondition dirichlet(BoundaryValue g, std::string text);
  static BoundaryCondition neumann(BoundaryValue g, std::string text);
  /// alpha u + beta u_x = g.
  static BoundaryCondition robin(double alpha, double beta, BoundaryValue g, std::string text);
  /// d^order u/dx^order = g.
  static BoundaryCondition derivative(int order, BoundaryValue g, std::string text);

  /// Highest m with w_m != 0.
  int order() const;
  /// "u = sin(t)", "u_x = 0", "2 u + u_x = 1".
  std::string describe() const;
};

/// The conditions at x = a ("left") and x = b ("right"), each in any order.
struct BoundaryConditions {
  std::vector<BoundaryCondition> left, right;
};

/// "left: u = 0; right: u = 0, u_x = 0" ("none" for an end without conditions).
std::string describe(const BoundaryConditions& conditions);

struct ConditionCount {
  int left = 0, right = 0;
};

/// The count above for order K >= 0 and the leading coefficients c at each end; throws
/// std::invalid_argument naming K and c for an even K with the sign of backward diffusion
/// (or c = 0, which leaves the count undecided).
ConditionCount required_conditions(int order, double leading_left, double leading_right);

/// Throws std::invalid_argument unless `conditions` has `required` conditions at each end,
/// each of a derivative order below K, with finite weights and a value. The message names
/// the end, the count it needs and why (`equation` describes the problem: "u_t = -u*u_x - u_xxx").
void check_conditions(const BoundaryConditions& conditions, const ConditionCount& required,
                      int order, const std::string& equation);

}  // namespace bhpm::pde
