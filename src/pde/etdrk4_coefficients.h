#pragma once
/// The ETDRK4 coefficients Q, f1, f2, f3 of pde/etdrk4_functions.h for a tensor of z = h L
/// (a diagonal linear part, one z per mode).

#include <ATen/core/Tensor.h>

namespace bhpm::pde {

struct Etdrk4Coefficients {
  at::Tensor q, f1, f2, f3;  ///< each [modes] complex, same shape as z
};

/// z [modes] complex (h times the Fourier symbol), h > 0, contour_points M >= 8.
Etdrk4Coefficients etdrk4_coefficients(const at::Tensor& z, double h, int contour_points);

}  // namespace bhpm::pde
