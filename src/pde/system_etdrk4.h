#pragma once
/// ETDRK4 steps (Cox and Matthews 2002) of a field system (pde/field_system.h) on a periodic
/// box, on plain arrays. The linear part couples the q fields at each spectrum entry k:
/// L(k) [q, q], L_ij(k) = sum c (i k_x)^a (i k_y)^b over field i's linear terms in field j.
/// It is diagonalised once per entry, L = V diag(lambda) V^{-1} (Eigen), so that every
/// coefficient is g(hL) = V diag(g(h lambda)) V^{-1} with g from pde/etdrk4_coefficients.h:
/// coupled fields (NLS's real and imaginary parts) are stepped as exactly as one field.
/// The nonlinear parts come from pde/system_nonlinear_part.h, 2/3 rule included.

#include <complex>
#include <cstdint>
#include <vector>

#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/real_fft.h"
#include "pde/system_nonlinear_part.h"

namespace bhpm::pde {

class SystemEtdrk4 {
 public:
  /// E = exp(hL), E2 = exp(hL/2), Q, f1, f2, f3 of one step h, each [modes, q, q].
  struct Coefficients {
    std::vector<std::complex<double>> e, e2, q, f1, f2, f3;
  };

  /// Throws std::invalid_argument when L(k) has no well-conditioned eigenvectors at some k
  /// (a defective coupling such as u_t = v_xx, v_t = 0), naming k. With `nonlinearity`, N is
  /// that code instead of the system's expressions (pde/system_nonlinear_part.h).
  SystemEtdrk4(const PeriodicBox& box, const FieldSystem& system, int contour_points = 64,
               const PointwiseNonlinearity* nonlinearity = nullptr);

  std::int64_t fields() const { return fields_; }
  std::int64_t modes() const { return box_.modes(); }
  const PeriodicBox& box() const { return box_; }
  /// L(k) [modes, q, q] (row-major per entry) at every spectrum entry; entry 0 is k = 0.
  const std::vector<std::complex<double>>& linear_symbol() const { return linear_; }

  /// The coefficients of step h > 0.
  Coefficients coefficients(double h) const;
  /// One step: out [q, modes] = ETDRK4(v [q, modes]) with `c` the coefficients of the step.
  /// out must not alias v.
  void step(const FftSpectrum& v, const Coefficients& c, FftSpectrum& out);

  /// The right-hand side u_t [q, points] = L u + N(u) at the state u [q, points] (N with
  /// the 2/3 rule, as the steps take it).
  std::vector<double> time_derivative(const std::vector<double>& u);

  /// u [q, points] -> v [q, modes].
  void to_spectral(const double* u, FftSpectrum& v) const;
  /// v [q, modes] -> u [q, points].
  void to_physical(const FftSpectrum& v, double* u) const;

 private:
  /// out = sum of terms C_t x_t per entry, each C [modes, q, q] and x [q, modes].
  void combine(
      std::initializer_list<std::pair<const std::vector<std::complex<double>>*, const FftSpectrum*>>
          terms,
      FftSpectrum& out) const;

  PeriodicBox box_;
  std::int64_t fields_;
  int contour_points_;
  std::vector<std::complex<double>> linear_;       ///< [modes, q, q]: L(k)
  std::vector<std::complex<double>> eigenvalues_;  ///< [modes, q]
  std::vector<std::complex<double>> vectors_;      ///< [modes, q, q]: V
  std::vector<std::complex<double>> inverses_;     ///< [modes, q, q]: V^{-1}
  SystemNonlinearPart nonlinear_;
  RealFft fft_;
  FftSpectrum nv_, a_, na_, b_, nb_, c_, nc_, twice_nb_minus_nv_,
      twice_na_plus_nb_;  ///< [q, modes]
};

}  // namespace bhpm::pde
