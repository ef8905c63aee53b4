#include "pde/etdrk4_stepper.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "pde/dealiasing.h"
#include "pde/etdrk4_coefficients.h"
#include "util/name_list.h"
#include "util/option_check.h"

namespace bhpm::pde {

void validate(const Etdrk4Options& options) {
  util::require_positive(options.dt, "ETDRK4", "dt");
  util::require_option(options.contour_points >= 8 && options.contour_points <= 4096, "ETDRK4",
                       "contour_points", "must be in [8, 4096]",
                       util::option_value(std::int64_t{options.contour_points}));
  util::require_listed(options.dealias, dealiasing_names(), "ETDRK4", "dealias");
}

Etdrk4Stepper::Etdrk4Stepper(const PeriodicGrid& grid, Equation equation,
                             const Etdrk4Options& options)
    : grid_(grid),
      equation_(std::move(equation)),
      dt_(options.dt),
      product_(grid, options.dealias) {
  validate(options);
  const at::Tensor z = dt_ * grid_.linear_symbol(equation_.linear);  // [modes]
  const Etdrk4Coefficients c = etdrk4_coefficients(z, dt_, options.contour_points);
  coefficients_ = {at::exp(z), at::exp(0.5 * z), c.q, c.f1, c.f2, c.f3};

  if (equation_.nonlinear) {
    const int k = equation_.nonlinear->max_derivative();
    std::vector<at::Tensor> symbols;
    for (int m = 0; m <= k; ++m) symbols.push_back(grid_.derivative_symbol(m));
    derivative_symbols_ = at::stack(symbols).unsqueeze(1);
  }
}

at::Tensor Etdrk4Stepper::nonlinear_spectral(const at::Tensor& v, const at::Tensor& t,
                                             const NonlinearTerm& term) const {
  const at::Tensor derivatives = product_.to_physical(derivative_symbols_ * v.unsqueeze(0));
  return product_.to_spectral(term.evaluate_at(derivatives, t));
}

at::Tensor Etdrk4Stepper::advance(const at::Tensor& v, const Etdrk4StepCoefficients& c,
                                  const StageTimes& times, const NonlinearTerm* term,
                                  const at::Tensor& nv_known) const {
  if (!term) return c.e * v;
  const at::Tensor nv = nv_known.defined() ? nv_known : nonlinear_spectral(v, times.start, *term);
  const at::Tensor e2v = c.e2 * v;
  const at::Tensor a = e2v + c.q * nv;
  const at::Tensor& midpoint = times.middle;
  const at::Tensor na = nonlinear_spectral(a, midpoint, *term);
  const at::Tensor b = e2v + c.q * na;
  const at::Tensor nb = nonlinear_spectral(b, midpoint, *term);
  const at::Tensor stage_c = c.e2 * a + c.q * (2.0 * nb - nv);
  const at::Tensor nc = nonlinear_spectral(stage_c, times.end, *term);
  return c.e * v + c.f1 * nv + 2.0 * c.f2 * (na + nb) + c.f3 * nc;
}

at::Tensor Etdrk4Stepper::step(const at::Tensor& v, double t) const {
  const at::TensorOptions real = grid_.real_options();
  return advance(v, coefficients_,
                 {at::scalar_tensor(t, real), at::scalar_tensor(t + 0.5 * dt_, real),
                  at::scalar_tensor(t + dt_, real)},
                 equation_.nonlinear.get());
}

at::Tensor Etdrk4Stepper::step_members(const at::Tensor& v,
                                       const Etdrk4StepCoefficients& coefficients,
                                       const at::Tensor& t, const at::Tensor& h,
                                       const NonlinearTerm* term,
                                       const at::Tensor& first_stage) const {
  const at::Tensor start = t.unsqueeze(1), step = h.unsqueeze(1);
  return advance(v, coefficients, {start, start + 0.5 * step, start + step}, term, first_stage);
}

at::Tensor Etdrk4Stepper::first_stage(const at::Tensor& v, const at::Tensor& t,
                                      const NonlinearTerm* term) const {
  return term ? nonlinear_spectral(v, t.unsqueeze(1), *term) : at::Tensor();
}

}  // namespace bhpm::pde
