#include "pde/exact_solutions.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

namespace bhpm::pde {

at::Tensor kdv_soliton(const at::Tensor& x, double t, double c, double x0, double length) {
  const at::Tensor shifted = at::remainder(x - c * t - x0 + 0.5 * length, length) - 0.5 * length;
  const at::Tensor sech = 1.0 / at::cosh(0.5 * std::sqrt(c) * shifted);
  return 3.0 * c * sech * sech;
}

at::Tensor burgers_cole_hopf(const PeriodicGrid& grid, const at::Tensor& u0, double nu,
                             const at::Tensor& times, int refine) {
  const double mean = u0.mean().item<double>();
  if (std::abs(mean) > 1e-12 * std::max(1.0, u0.abs().max().item<double>()))
    throw std::invalid_argument("Cole-Hopf: u0 must have zero mean (got " + std::to_string(mean) +
                                ")");
  const PeriodicGrid fine(grid.x_min(), grid.x_max(), grid.points() * refine);
  // Spectral interpolation: copy the coefficients below Nyquist, scale for the longer FFT.
  at::Tensor u0_hat = at::zeros({fine.modes()}, at::kComplexDouble);
  u0_hat.slice(0, 0, grid.modes() - 1).copy_(grid.to_spectral(u0).slice(0, 0, grid.modes() - 1));
  u0_hat = u0_hat * static_cast<double>(refine);
  // psi = antiderivative of u0 (zero-mean), phi0 = exp(-(psi - min psi) / (2 nu)).
  const at::Tensor k = fine.wavenumbers();
  at::Tensor inverse_ik = at::zeros_like(u0_hat);
  inverse_ik.slice(0, 1) = 1.0 / at::complex(at::zeros_like(k.slice(0, 1)), k.slice(0, 1));
  const at::Tensor psi = fine.to_physical(u0_hat * inverse_ik);
  const at::Tensor phi0_hat = fine.to_spectral(at::exp(-(psi - psi.min()) / (2.0 * nu)));
  const at::Tensor decay = at::exp(-nu * at::outer(times.to(at::kDouble), k * k));  // [T, modes]
  const at::Tensor phi_hat = phi0_hat.unsqueeze(0) * decay;
  const at::Tensor phi = fine.to_physical(phi_hat);
  const at::Tensor phi_x = fine.to_physical(phi_hat * fine.derivative_symbol(1));
  return (-2.0 * nu * phi_x / phi).slice(1, 0, fine.points(), refine);
}

at::Tensor linear_exact(const PeriodicGrid& grid, const std::vector<double>& coefficients,
                        const at::Tensor& u0, const at::Tensor& times) {
  const at::Tensor symbol = grid.linear_symbol(coefficients);
  const at::Tensor propagator = at::exp(times.to(at::kDouble).unsqueeze(1) * symbol.unsqueeze(0));
  return grid.to_physical(propagator * grid.to_spectral(u0).unsqueeze(0));
}

}  // namespace bhpm::pde
