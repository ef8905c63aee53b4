#pragma once
/// A smooth interpolant of values at increasing abscissae: boundary data tabulated in time
/// (pde/boundary_values.h) and initial conditions sampled at points on an interval
/// (pde/sampled_initial_condition.h).
///
/// Piecewise cubic Hermite: between s_k and s_{k+1} the cubic with the values g_k, g_{k+1}
/// and the slopes of the quadratic through each point and its neighbours (the first or last
/// three points at the ends; the secant when there are two points). Continuous with its
/// first derivative, exact for quadratics, third-order accurate on smooth data. Beyond the
/// ends the end pieces are extended.

#include <vector>

namespace bhpm::pde {

class HermiteInterpolant {
 public:
  /// s [k] strictly increasing and g [k] finite, k >= 2; throws std::invalid_argument
  /// otherwise (the caller's message should name the source).
  HermiteInterpolant(std::vector<double> s, std::vector<double> g);

  double operator()(double s) const;

 private:
  std::vector<double> s_, g_, slope_;
};

}  // namespace bhpm::pde
