#pragma once
/// ETDRK4 steps of one batch member on plain arrays: the stages, coefficients and dealiasing
/// of pde/etdrk4_stepper.h, with FFTW transforms (pde/real_fft.h) and loops in place of tensor
/// operations, so a step of a small grid does not pay a tensor library's cost per operation.
/// For equations whose nonlinear part evaluates plain values
/// (NonlinearTerm::evaluates_values) or have none; pde/plain_periodic_solve.h drives it.

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pde/equation.h"
#include "pde/etdrk4_stepper.h"
#include "pde/periodic_grid.h"
#include "pde/real_fft.h"

namespace bhpm::pde {

class PlainEtdrk4 {
 public:
  /// A spectrum [n/2+1] (rfft coefficients of the grid's n points).
  using Spectrum = FftSpectrum;
  /// E = exp(hL), E2 = exp(hL/2), Q, f1, f2, f3 of one step size h, each [n/2+1].
  struct Coefficients {
    Spectrum e, e2, q, f1, f2, f3;
  };
  /// Scratch arrays of one thread's steps.
  struct Workspace {
    Spectrum padded;       ///< [m/2+1], m the product's points
    FftReals derivatives;  ///< [K+1, m]: u, u_x, .., d^K u on the product's points
    FftReals values;       ///< [m]: N there
    Spectrum e2v, a, b, c, na, nb, nc;
  };

  /// Throws std::invalid_argument unless the grid is on the CPU and the equation's nonlinear
  /// part evaluates values (or is absent); `dealias` as Etdrk4Options::dealias.
  PlainEtdrk4(const PeriodicGrid& grid, const Equation& equation, const std::string& dealias);

  /// The tensors of Etdrk4Stepper::coefficients() as plain arrays.
  static Coefficients coefficients(const Etdrk4StepCoefficients& tensors);
  Workspace workspace() const;
  std::int64_t modes() const { return modes_; }
  std::int64_t points() const { return grid_fft_.size(); }
  bool has_nonlinear_part() const { return term_ != nullptr; }

  /// N_hat(v) of batch member `member` at time t into nv [n/2+1] (has_nonlinear_part() only).
  void nonlinear(std::int64_t member, const Spectrum& v, double t, Spectrum& nv,
                 Workspace& work) const;
  /// One step of member `member` of size h from time t: out = ETDRK4(v) with `c` the
  /// coefficients of h and nv = N_hat(v) at t (unread without a nonlinear part). out must not
  /// alias v or nv.
  void step(std::int64_t member, const Spectrum& v, const Spectrum& nv, const Coefficients& c,
            double t, double h, Spectrum& out, Workspace& work) const;

  /// u [n] -> v [n/2+1] on the grid's points, as PeriodicGrid::to_spectral.
  void to_spectral(const double* u, Spectrum& v) const;
  /// v [n/2+1] -> u [n], as PeriodicGrid::to_physical.
  void to_physical(const Spectrum& v, double* u, Workspace& work) const;

 private:
  std::shared_ptr<const NonlinearTerm> term_;
  std::int64_t modes_;
  std::vector<Spectrum> symbols_;     ///< [K+1][n/2+1]: (i k)^m
  std::vector<double> to_product_;    ///< [n/2+1]: scales a spectrum before the product's transform
  std::vector<double> from_product_;  ///< [n/2+1]: scales N_hat after it (aliased modes 0)
  RealFft grid_fft_;                  ///< n points
  std::unique_ptr<RealFft> product_fft_;  ///< m points when they differ from n ("pad")
  const RealFft& product_fft() const { return product_fft_ ? *product_fft_ : grid_fft_; }
};

}  // namespace bhpm::pde
