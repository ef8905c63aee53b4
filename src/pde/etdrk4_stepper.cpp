#include "pde/etdrk4_stepper.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "pde/etdrk4_coefficients.h"

namespace bhpm::pde {

Etdrk4Stepper::Etdrk4Stepper(const PeriodicGrid& grid, Equation equation,
                             const Etdrk4Options& options)
    : grid_(grid),
      equation_(std::move(equation)),
      dt_(options.dt),
      product_(grid, options.dealias) {
  if (!(options.dt > 0.0 && std::isfinite(options.dt)))
    throw std::invalid_argument("ETDRK4: time step must be positive (got " +
                                std::to_string(options.dt) + ")");
  if (options.contour_points < 8)
    throw std::invalid_argument("ETDRK4: contour_points must be >= 8 (got " +
                                std::to_string(options.contour_points) + ")");
  const at::Tensor z = dt_ * grid_.linear_symbol(equation_.linear);  // [modes]
  e_ = at::exp(z);
  e2_ = at::exp(0.5 * z);
  const Etdrk4Coefficients c = etdrk4_coefficients(z, dt_, options.contour_points);
  q_ = c.q;
  f1_ = c.f1;
  f2_ = c.f2;
  f3_ = c.f3;

  if (equation_.nonlinear) {
    const int k = equation_.nonlinear->max_derivative();
    std::vector<at::Tensor> symbols;
    for (int m = 0; m <= k; ++m) symbols.push_back(grid_.derivative_symbol(m));
    derivative_symbols_ = at::stack(symbols).unsqueeze(1);
  }
}

at::Tensor Etdrk4Stepper::nonlinear_spectral(const at::Tensor& v, double t) const {
  const at::Tensor derivatives = product_.to_physical(derivative_symbols_ * v.unsqueeze(0));
  return product_.to_spectral(equation_.nonlinear->evaluate_at(derivatives, t));
}

at::Tensor Etdrk4Stepper::step(const at::Tensor& v, double t) const {
  if (!equation_.nonlinear) return e_ * v;
  const at::Tensor nv = nonlinear_spectral(v, t);
  const at::Tensor e2v = e2_ * v;
  const at::Tensor a = e2v + q_ * nv;
  const at::Tensor na = nonlinear_spectral(a, t + 0.5 * dt_);
  const at::Tensor b = e2v + q_ * na;
  const at::Tensor nb = nonlinear_spectral(b, t + 0.5 * dt_);
  const at::Tensor c = e2_ * a + q_ * (2.0 * nb - nv);
  const at::Tensor nc = nonlinear_spectral(c, t + dt_);
  return e_ * v + f1_ * nv + 2.0 * f2_ * (na + nb) + f3_ * nc;
}

}  // namespace bhpm::pde
