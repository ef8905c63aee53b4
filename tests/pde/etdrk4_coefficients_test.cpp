// ETDRK4 coefficients against the phi-function identities evaluated in long double:
//   Q = h phi1(z/2) / 2, f1 = h (phi1 - 3 phi2 + 4 phi3), f2 = h (phi2 - 2 phi3),
//   f3 = h (-phi2 + 4 phi3), phi_k(z) = sum_n z^n / (n + k)!,
// by Taylor series for |z| < 1 and by the closed forms (cancellation-free enough in long
// double) otherwise.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "pde/etdrk4_coefficients.h"

namespace {

using Complex = std::complex<long double>;

Complex phi(int k, Complex z) {
  if (std::abs(z) < 1.0L) {
    Complex sum = 0, term = 1;
    long double factorial = 1;
    for (int j = 1; j <= k; ++j) factorial *= j;
    term = 1.0L / factorial;
    for (int n = 0; n < 60; ++n) {
      sum += term;
      term *= z / static_cast<long double>(n + k + 1);
    }
    return sum;
  }
  const Complex e = std::exp(z);
  if (k == 1) return (e - 1.0L) / z;
  if (k == 2) return (e - 1.0L - z) / (z * z);
  return (e - 1.0L - z - z * z / 2.0L) / (z * z * z);
}

std::complex<double> element(const at::Tensor& t, int64_t i) {
  const auto value = t[i].item<c10::complex<double>>();
  return {value.real(), value.imag()};
}

void expect_close(std::complex<double> got, Complex want, const std::string& what) {
  const long double scale = std::max<long double>(std::abs(want), 1e-300L);
  EXPECT_LT(std::abs(Complex(got.real(), got.imag()) - want) / scale, 1e-12L) << what;
}

}  // namespace

TEST(Etdrk4Coefficients, match_phi_functions_from_zero_to_stiff) {
  const std::vector<std::complex<double>> zs = {
      {1e-9, 0},   {-1e-4, 0},  {0.3, 0},    {-1.0, 0}, {0.0, 1.0}, {0.0, -1.0},
      {-0.999, 0}, {0, 1.0001}, {-1.9, 0.1}, {-2.1, 0}, {0, 2.0},   {-50, 0},
      {0, 30},     {-300, 5},   {0, -128},   {1.5, 0},  {3.0, 0}};
  std::vector<c10::complex<double>> values;
  for (auto z : zs) values.emplace_back(z.real(), z.imag());
  const at::Tensor z = at::tensor(at::ArrayRef<c10::complex<double>>(values), at::kComplexDouble);
  const double h = 0.01;
  const auto c = bhpm::pde::etdrk4_coefficients(z, h, 64);
  for (std::size_t i = 0; i < zs.size(); ++i) {
    const Complex zz(zs[i].real(), zs[i].imag());
    const std::string what =
        "z = (" + std::to_string(zs[i].real()) + ", " + std::to_string(zs[i].imag()) + ")";
    const long double hl = h;
    expect_close(element(c.q, i), hl * phi(1, zz / 2.0L) / 2.0L, "Q at " + what);
    expect_close(element(c.f1, i), hl * (phi(1, zz) - 3.0L * phi(2, zz) + 4.0L * phi(3, zz)),
                 "f1 at " + what);
    expect_close(element(c.f2, i), hl * (phi(2, zz) - 2.0L * phi(3, zz)), "f2 at " + what);
    expect_close(element(c.f3, i), hl * (-phi(2, zz) + 4.0L * phi(3, zz)), "f3 at " + what);
  }
}
