#pragma once
/// The ETDRK4 coefficients of Cox and Matthews (2002) for a diagonal linear part, with
/// z = h L:
///   Q  = h (e^{z/2} - 1) / z
///   f1 = h (-4 - z + e^z (4 - 3z + z^2)) / z^3
///   f2 = h (2 + z + e^z (z - 2)) / z^3
///   f3 = h (-4 - 3z - z^2 + e^z (4 - z)) / z^3
/// Each g(z) is entire, but the formulas cancel catastrophically near z = 0. Following
/// Kassam and Trefethen (2005) they are evaluated as contour integrals:
///   |z| >= 2: mean of g over M points on the circle of radius 1 around z (mean-value
///             property); the circle stays at distance >= 1 from 0.
///   |z| <  2: Cauchy's formula g(z) = mean_j g(w_j) w_j / (w_j - z) on the circle
///             |w| = 4 around 0 (trapezoid error ~ (|z|/4)^M).
/// Kassam and Trefethen's single circle of radius 1 around z passes arbitrarily close
/// to 0 when |z| is near 1, where g(w) loses up to all digits (measured: a 1e-7 error
/// floor on KdV); the split above keeps every evaluation point at least 1 away from 0.

#include <ATen/core/Tensor.h>

namespace bhpm::pde {

struct Etdrk4Coefficients {
  at::Tensor q, f1, f2, f3;  ///< each [modes] complex, same shape as z
};

/// z [modes] complex (h times the Fourier symbol), h > 0, contour_points M >= 8.
Etdrk4Coefficients etdrk4_coefficients(const at::Tensor& z, double h, int contour_points);

}  // namespace bhpm::pde
