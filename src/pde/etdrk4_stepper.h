#pragma once
/// ETDRK4 (Cox and Matthews 2002) with the contour-integral coefficients of Kassam and
/// Trefethen (2005) for u_hat_t = L u_hat + N_hat(u_hat) on a periodic grid.
///
/// With E = exp(hL), E2 = exp(hL/2) and the phi-function combinations Q, f1, f2, f3
/// evaluated as contour integrals (pde/etdrk4_coefficients.h):
///   a = E2 v + Q N(v),  b = E2 v + Q N(a),  c = E2 a + Q (2 N(b) - N(v)),
///   v+ = E v + f1 N(v) + 2 f2 (N(a) + N(b)) + f3 N(c).
/// Fourth order in h.

#include <ATen/core/Tensor.h>

#include <string>

#include "pde/dealiasing.h"
#include "pde/equation.h"
#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// The coefficients of one step size h: E = exp(hL), E2 = exp(hL/2), Q, f1, f2, f3 (above),
/// each [n/2+1] complex, or [B, n/2+1] with one step size per batch member.
struct Etdrk4StepCoefficients {
  at::Tensor e, e2, q, f1, f2, f3;
};

struct Etdrk4Options {
  double dt = 1e-2;         ///< time step h (> 0)
  int contour_points = 64;  ///< M, points on the contour (8..4096)
  /// How N_hat is kept from aliasing: one of dealiasing_names() (pde/dealiasing.h).
  std::string dealias = "pad";
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const Etdrk4Options& options);

class Etdrk4Stepper {
 public:
  /// Precomputes the coefficients; throws as validate(options).
  Etdrk4Stepper(const PeriodicGrid& grid, Equation equation, const Etdrk4Options& options);

  /// One step from time t: v [B, n/2+1] complex -> [B, n/2+1] (N evaluated at the stage
  /// times t, t + dt/2, t + dt/2, t + dt).
  at::Tensor step(const at::Tensor& v, double t = 0.0) const;

  /// One step of each member b from its own time t[b] with its own step h[b]: v [B, n/2+1],
  /// t and h [B] double, `coefficients` [B, n/2+1] those of the steps h (gathered from
  /// steppers of those sizes; [n/2+1] when all are one size), `term` the explicit part for
  /// these B members (null: none).
  /// The same grid, dealiasing and linear part as this stepper's. `first_stage`, when
  /// defined, is N_hat(v) at t (first_stage() below), which steps of several sizes from the
  /// same v share.
  at::Tensor step_members(const at::Tensor& v, const Etdrk4StepCoefficients& coefficients,
                          const at::Tensor& t, const at::Tensor& h, const NonlinearTerm* term,
                          const at::Tensor& first_stage = {}) const;
  /// N_hat(v) [B, n/2+1] of `term` at each member's time t [B] (undefined when term is null).
  at::Tensor first_stage(const at::Tensor& v, const at::Tensor& t, const NonlinearTerm* term) const;

  double dt() const { return dt_; }
  /// This step size's coefficients, each [n/2+1].
  const Etdrk4StepCoefficients& coefficients() const { return coefficients_; }
  const PeriodicGrid& grid() const { return grid_; }

 private:
  PeriodicGrid grid_;
  Equation equation_;
  double dt_;
  at::Tensor derivative_symbols_;  ///< [K+1, 1, n/2+1]
  DealiasedProduct product_;
  Etdrk4StepCoefficients coefficients_;

  /// The stage times t, t + h/2, t + h: double scalars (0-dim) or [B, 1].
  struct StageTimes {
    at::Tensor start, middle, end;
  };
  /// The step above with coefficients c at those stage times.
  /// `nv_known`: N_hat(v) at times.start when already known (else undefined).
  at::Tensor advance(const at::Tensor& v, const Etdrk4StepCoefficients& c, const StageTimes& times,
                     const NonlinearTerm* term, const at::Tensor& nv_known = {}) const;
  /// N_hat of `term` at v [B, n/2+1] and times t (a 0-dim or [B, 1] double tensor):
  /// derivatives in physical space (on the product's points), N pointwise, back to Fourier
  /// space.
  at::Tensor nonlinear_spectral(const at::Tensor& v, const at::Tensor& t,
                                const NonlinearTerm& term) const;
};

}  // namespace bhpm::pde
