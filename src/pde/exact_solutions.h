#pragma once
/// Exact solutions used to verify the solvers (tests, bench/simulate_datasets).

#include <ATen/core/Tensor.h>

#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// KdV soliton of u_t = -u u_x - u_xxx on a periodic domain:
///   u = 3c sech^2(sqrt(c)/2 (x - c t - x0)),
/// with x - c t - x0 wrapped into [-L/2, L/2). Exact on the line; on the periodic domain
/// it is exact up to the tail 12 c exp(-sqrt(c) L/2) (2e-10 for c = 1.5, L = 40).
/// x [n] -> [n].
at::Tensor kdv_soliton(const at::Tensor& x, double t, double c, double x0, double length);

/// KdV two-soliton of u_t = -u u_x - u_xxx on the line (Hirota):
///   u = 12 d^2/dx^2 log tau,  tau = 1 + e^{eta_1} + e^{eta_2} + A e^{eta_1 + eta_2},
///   eta_i = k_i (x - x_i) - k_i^3 t,  A = ((k_1 - k_2) / (k_1 + k_2))^2:
/// solitons of speeds k_i^2 and amplitudes 3 k_i^2 that pass through each other and
/// come out shifted. On a periodic domain it is exact up to the tails at its ends.
/// x [n] -> [n].
at::Tensor kdv_two_soliton(const at::Tensor& x, double t, double k1, double x1, double k2,
                           double x2);

/// Viscous Burgers u_t = -u u_x + nu u_xx through the Cole-Hopf transform
/// u = -2 nu phi_x / phi, phi_t = nu phi_xx, phi(0) = exp(-(1/(2 nu)) int u0 dx).
/// u0 [n] on `grid` must have zero mean (else phi0 is not periodic); it is interpolated
/// spectrally onto a grid `refine` times finer, where phi is evolved exactly in Fourier
/// space, and u is sampled back on `grid`. Returns [T, n] for times [T].
/// Throws std::invalid_argument if u0's mean is not zero to 1e-12 relative.
/// The same soliton on the line (no wrapping) at one point, with its x-derivative:
/// d^order u/dx^order for order 0 or 1 (boundary values of the bounded solver's tests and
/// bench/bounded_solve).
double kdv_soliton_on_line(double x, double t, double c, double x0, int order);

/// A viscous Burgers front u = s - A tanh(A (x - s t) / (2 nu)), an exact solution of
/// u_t = -u u_x + nu u_xx on the line, moving at speed s from u = s + A to s - A over a
/// width of about 2 nu / A; d^order u/dx^order for order 0 or 1 at one point.
double viscous_burgers_front(double x, double t, double nu, double amplitude, double speed,
                             int order);

at::Tensor burgers_cole_hopf(const PeriodicGrid& grid, const at::Tensor& u0, double nu,
                             const at::Tensor& times, int refine = 8);

}  // namespace bhpm::pde
