#include "pde/exact_solutions.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "util/number_format.h"

namespace bhpm::pde {

at::Tensor kdv_soliton(const at::Tensor& x, double t, double c, double x0, double length) {
  const at::Tensor shifted = at::remainder(x - c * t - x0 + 0.5 * length, length) - 0.5 * length;
  const at::Tensor sech = 1.0 / at::cosh(0.5 * std::sqrt(c) * shifted);
  return 3.0 * c * sech * sech;
}

at::Tensor kdv_two_soliton(const at::Tensor& x, double t, double k1, double x1, double k2,
                           double x2) {
  const double a = std::pow((k1 - k2) / (k1 + k2), 2);
  const at::Tensor e1 = at::exp(k1 * (x - x1) - k1 * k1 * k1 * t);
  const at::Tensor e2 = at::exp(k2 * (x - x2) - k2 * k2 * k2 * t);
  const at::Tensor e12 = a * e1 * e2;
  const at::Tensor tau = 1.0 + e1 + e2 + e12;
  const at::Tensor tau_x = k1 * e1 + k2 * e2 + (k1 + k2) * e12;
  const at::Tensor tau_xx = k1 * k1 * e1 + k2 * k2 * e2 + (k1 + k2) * (k1 + k2) * e12;
  return 12.0 * (tau * tau_xx - tau_x * tau_x) / (tau * tau);
}

at::Tensor burgers_cole_hopf(const PeriodicGrid& grid, const at::Tensor& u0, double nu,
                             const at::Tensor& times, int refine) {
  const double mean = u0.mean().item<double>();
  if (std::abs(mean) > 1e-12 * std::max(1.0, u0.abs().max().item<double>()))
    throw std::invalid_argument("Cole-Hopf: u0 must have zero mean (got " +
                                util::format_significant(mean, 6) + ")");
  const PeriodicGrid fine(grid.x_min(), grid.x_max(), grid.points() * refine);
  // psi = antiderivative of u0 on the fine grid, by spectral interpolation (coefficients
  // below Nyquist copied, scaled for the longer FFT) and division by i k.
  at::Tensor u0_hat = at::zeros({fine.modes()}, at::kComplexDouble);
  u0_hat.slice(0, 0, grid.modes() - 1).copy_(grid.to_spectral(u0).slice(0, 0, grid.modes() - 1));
  const at::Tensor k = fine.wavenumbers().slice(0, 1);
  at::Tensor psi_hat = at::zeros_like(u0_hat);
  psi_hat.slice(0, 1) =
      u0_hat.slice(0, 1) * static_cast<double>(refine) / at::complex(at::zeros_like(k), k);
  const at::Tensor psi = fine.to_physical(psi_hat);  // [m]
  const at::Tensor x = grid.x().unsqueeze(1);        // [n, 1]
  std::vector<at::Tensor> images;
  for (int image = -2; image <= 2; ++image) images.push_back(fine.x() + image * grid.length());
  const at::Tensor y = at::cat(images).unsqueeze(0);      // [1, 5m]
  const at::Tensor psi_y = psi.repeat({5}).unsqueeze(0);  // [1, 5m]
  const at::Tensor offset = x - y;                        // [n, 5m]
  at::Tensor u = at::empty({times.size(0), grid.points()}, at::kDouble);
  for (int64_t i = 0; i < times.size(0); ++i) {
    const double t = times[i].item<double>();
    if (t <= 0.0) {
      u[i] = u0;
      continue;
    }
    // phi(x, t) = int G(x - y, t) exp(-psi(y) / (2 nu)) dy over the line (periodic psi);
    // u = -2 nu phi_x / phi = <(x - y) / t> under weights exp(exponent): positive weights,
    // so no cancellation however small phi gets.
    const at::Tensor exponent = -offset * offset / (4.0 * nu * t) - psi_y / (2.0 * nu);
    const at::Tensor weights = at::softmax(exponent, 1);
    u[i] = (weights * offset).sum(1) / t;
  }
  return u;
}

double kdv_soliton_on_line(double x, double t, double c, double x0, int order) {
  if (order < 0 || order > 1)
    throw std::invalid_argument("kdv_soliton_on_line: order must be 0 or 1");
  const double k = std::sqrt(c) / 2.0, z = k * (x - c * t - x0);
  const double sech = 1.0 / std::cosh(z);
  return order == 0 ? 3.0 * c * sech * sech : -6.0 * c * k * sech * sech * std::tanh(z);
}

double viscous_burgers_front(double x, double t, double nu, double amplitude, double speed,
                             int order) {
  if (order < 0 || order > 1)
    throw std::invalid_argument("viscous_burgers_front: order must be 0 or 1");
  const double scale = amplitude / (2.0 * nu), th = std::tanh(scale * (x - speed * t));
  return order == 0 ? speed - amplitude * th : -amplitude * scale * (1.0 - th * th);
}

}  // namespace bhpm::pde
