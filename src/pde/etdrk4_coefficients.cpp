#include "pde/etdrk4_coefficients.h"

#include <ATen/ATen.h>

#include <cmath>

namespace bhpm::pde {

namespace {

constexpr double kSplitRadius = 2.0;   ///< |z| below which Cauchy's formula is used
constexpr double kCauchyRadius = 4.0;  ///< radius of the circle around 0

/// The four functions of w [..., M], without the factor h.
Etdrk4Coefficients evaluate(const at::Tensor& w) {
  const at::Tensor exp_w = at::exp(w);
  const at::Tensor w3 = w * w * w;
  return {(at::exp(0.5 * w) - 1.0) / w, (-4.0 - w + exp_w * (4.0 - 3.0 * w + w * w)) / w3,
          (2.0 + w + exp_w * (w - 2.0)) / w3, (-4.0 - 3.0 * w - w * w + exp_w * (4.0 - w)) / w3};
}

}  // namespace

Etdrk4Coefficients etdrk4_coefficients(const at::Tensor& z, double h, int contour_points) {
  const at::Tensor theta = (at::arange(contour_points, z.options().dtype(at::kDouble)) + 0.5) *
                           (2.0 * M_PI / contour_points);
  const at::Tensor unit = at::polar(at::ones_like(theta), theta);  // [M]

  const at::Tensor around_z = z.unsqueeze(1) + unit.unsqueeze(0);  // [modes, M]
  const Etdrk4Coefficients mean = evaluate(around_z);

  const at::Tensor w = (kCauchyRadius * unit).unsqueeze(0);  // [1, M]
  const at::Tensor weight = w / (w - z.unsqueeze(1));        // [modes, M]
  const Etdrk4Coefficients cauchy = evaluate(w);

  const at::Tensor small = (z.abs() < kSplitRadius);
  auto combine = [&](const at::Tensor& g_mean, const at::Tensor& g_cauchy) {
    return h * at::where(small, (g_cauchy * weight).mean(1), g_mean.mean(1));
  };
  return {combine(mean.q, cauchy.q), combine(mean.f1, cauchy.f1), combine(mean.f2, cauchy.f2),
          combine(mean.f3, cauchy.f3)};
}

}  // namespace bhpm::pde
