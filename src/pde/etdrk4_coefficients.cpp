#include "pde/etdrk4_coefficients.h"

#include <ATen/ATen.h>

#include <complex>

#include "pde/etdrk4_functions.h"

namespace bhpm::pde {

Etdrk4Coefficients etdrk4_coefficients(const at::Tensor& z, double h, int contour_points) {
  const at::Tensor values = z.to(at::kCPU, at::kComplexDouble).contiguous();
  const auto* zs = values.data_ptr<c10::complex<double>>();
  Etdrk4Coefficients out{at::empty_like(values), at::empty_like(values), at::empty_like(values),
                         at::empty_like(values)};
  auto* q = out.q.data_ptr<c10::complex<double>>();
  auto* f1 = out.f1.data_ptr<c10::complex<double>>();
  auto* f2 = out.f2.data_ptr<c10::complex<double>>();
  auto* f3 = out.f3.data_ptr<c10::complex<double>>();
  for (std::int64_t i = 0; i < values.numel(); ++i) {
    const Etdrk4Functions g =
        etdrk4_functions(std::complex<double>(zs[i].real(), zs[i].imag()), h, contour_points);
    q[i] = {g.q.real(), g.q.imag()};
    f1[i] = {g.f1.real(), g.f1.imag()};
    f2[i] = {g.f2.real(), g.f2.imag()};
    f3[i] = {g.f3.real(), g.f3.imag()};
  }
  const auto to_z = [&](const at::Tensor& c) { return c.to(z.options()); };
  return {to_z(out.q), to_z(out.f1), to_z(out.f2), to_z(out.f3)};
}

}  // namespace bhpm::pde
