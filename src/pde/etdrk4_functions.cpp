#include "pde/etdrk4_functions.h"

#include <cmath>

namespace bhpm::pde {

namespace {

constexpr double kSplitRadius = 2.0;   ///< |z| below which Cauchy's formula is used
constexpr double kCauchyRadius = 4.0;  ///< radius of the circle around 0

/// The four functions at w, without the factor h.
Etdrk4Functions functions_at(std::complex<double> w) {
  const std::complex<double> exp_w = std::exp(w);
  const std::complex<double> w3 = w * w * w;
  return {(std::exp(0.5 * w) - 1.0) / w, (-4.0 - w + exp_w * (4.0 - 3.0 * w + w * w)) / w3,
          (2.0 + w + exp_w * (w - 2.0)) / w3, (-4.0 - 3.0 * w - w * w + exp_w * (4.0 - w)) / w3};
}

}  // namespace

Etdrk4Functions etdrk4_functions(std::complex<double> z, double h, int contour_points) {
  const bool small = std::abs(z) < kSplitRadius;
  Etdrk4Functions sum{};
  for (int j = 0; j < contour_points; ++j) {
    const std::complex<double> unit = std::polar(1.0, (j + 0.5) * (2.0 * M_PI / contour_points));
    std::complex<double> weight = 1.0;
    Etdrk4Functions g;
    if (small) {
      const std::complex<double> w = kCauchyRadius * unit;
      weight = w / (w - z);
      g = functions_at(w);
    } else {
      g = functions_at(z + unit);
    }
    sum.q += weight * g.q;
    sum.f1 += weight * g.f1;
    sum.f2 += weight * g.f2;
    sum.f3 += weight * g.f3;
  }
  const double scale = h / contour_points;
  return {scale * sum.q, scale * sum.f1, scale * sum.f2, scale * sum.f3};
}

}  // namespace bhpm::pde
