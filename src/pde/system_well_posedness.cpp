#include "pde/system_well_posedness.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace bhpm::pde {

SystemWellPosedness system_well_posedness(const SystemEtdrk4& linear, double t_end,
                                          double amplification_limit) {
  if (!(t_end > 0.0) || !(amplification_limit > 1.0))
    throw std::invalid_argument("system well-posedness: t_end must be > 0 and the limit > 1");
  const PeriodicBox& box = linear.box();
  const std::int64_t q = linear.fields();
  const std::vector<std::complex<double>>& symbol = linear.linear_symbol();
  const auto entry = [&](std::int64_t mode, std::int64_t i, std::int64_t j) {
    return symbol[static_cast<std::size_t>((mode * q + i) * q + j)];
  };
  Eigen::MatrixXcd derivative_part(q, q);
  Eigen::ComplexEigenSolver<Eigen::MatrixXcd> solver;
  const double allowed = std::log(amplification_limit) / t_end;
  SystemWellPosedness result{-std::numeric_limits<double>::infinity(), 0.0};
  for (std::int64_t m = 1; m < box.modes(); ++m) {
    if (!box.below_two_thirds(m)) continue;
    const double k2 = box.kx(m) * box.kx(m) + box.ky(m) * box.ky(m);
    if (k2 == 0.0) continue;
    for (std::int64_t i = 0; i < q; ++i)
      for (std::int64_t j = 0; j < q; ++j) derivative_part(i, j) = entry(m, i, j) - entry(0, i, j);
    solver.compute(derivative_part, /*computeEigenvectors=*/false);
    const double g = solver.eigenvalues().real().maxCoeff();
    result.growth = std::max(result.growth, t_end * g);
    result.diffusion = std::max(result.diffusion, (g - allowed) / k2);
  }
  if (!std::isfinite(result.growth)) result.growth = 0.0;  // no resolved wave but the mean
  return result;
}

namespace {

/// Adds coefficient * `partial` to `equation`, merged with a term of the same partial.
void add_term(FieldEquation& equation, const Partial& partial, double coefficient) {
  for (LinearTerm& term : equation.linear)
    if (term.partial.field == partial.field && term.partial.x_order == partial.x_order &&
        term.partial.y_order == partial.y_order) {
      term.coefficient += coefficient;
      return;
    }
  equation.linear.push_back({partial, coefficient});
}

}  // namespace

FieldSystem with_added_diffusion(FieldSystem system, double diffusion) {
  if (diffusion == 0.0) return system;
  for (std::int64_t i = 0; i < system.size(); ++i) {
    FieldEquation& equation = system.equations[static_cast<std::size_t>(i)];
    add_term(equation, {i, 2, 0}, diffusion);
    if (system.dimensions == 2) add_term(equation, {i, 0, 2}, diffusion);
  }
  return system;
}

}  // namespace bhpm::pde
