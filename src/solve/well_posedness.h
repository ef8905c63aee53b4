#pragma once
/// Well-posedness of operator samples along an initial condition (docs/predictions.md,
/// "Ill-posed samples"). A GP sample of f need not define a well-posed IBVP: where its
/// derivative with respect to u_xx is negative it diffuses backwards, and a spectral solve
/// then amplifies the grid's shortest waves until it blows up. The check linearises each
/// sample about the initial condition with frozen coefficients,
///   c_{s,m} = mean_x df_s/dv_m (v(u0(x))),  m = 0..K,
///   lambda_s(k) = sum_m c_{s,m} (i k)^m,  Re lambda_s(k) = sum_{m even} c_{s,m} (-1)^{m/2} k^m,
/// and measures how many e-folds the fastest resolved wave gains over the mean (k = 0) one
/// within the horizon,
///   growth_s = t_end max_{0 < k <= k_max} (Re lambda_s(k) - Re lambda_s(0)),
/// k_max the largest wavenumber the solver keeps (pde/dealiasing.h: 2/3 of the Nyquist one
/// when truncating).
/// Sample s is ill-posed when growth_s > ln(amplification_limit). The least constant
/// diffusion a_s u_xx that brings it within the limit (what predict adds to an ill-posed
/// sample to repair it, solve/stabilised_samples.h) is
///   a_s = max(0, max_{0 < k <= k_max} (Re lambda_s(k) - Re lambda_s(0) - ln(limit) / t_end) /
///   k^2):
/// a u_xx term adds -a k^2 to Re lambda(k), so every resolved wave then gains at most
/// ln(limit) e-folds. Examples with a known
/// symbol: heat u_t = nu u_xx has growth -nu k_1^2 t_end < 0 (k_1 the smallest wavenumber)
/// forwards and nu k_max^2 t_end backwards (nu < 0); KdV u_t = -u u_x - delta u_xxx has a
/// purely imaginary principal symbol, so its growth is that of any u_xx part alone.

#include <ATen/core/Tensor.h>

#include <string>

#include "gp/function_samples.h"
#include "pde/chebyshev_grid.h"
#include "pde/periodic_grid.h"

namespace bhpm::solve {

struct WellPosednessOptions {
  double t_end = 1.0;                 ///< horizon (> 0)
  std::string dealias = "truncate";   ///< the solver's dealiasing (pde::dealiasing_names())
  double amplification_limit = 10.0;  ///< largest accepted growth factor exp(growth_s) (> 1)
};

/// Every tensor on the grid's device.
struct WellPosedness {
  at::Tensor linearisation;  ///< c [S, D]: each sample's Jacobian averaged over u0's points
  at::Tensor growth;         ///< [S]: e-folds of the fastest resolved wave over the horizon
  at::Tensor ill_posed;      ///< [S] bool: growth_s > ln(amplification_limit), or not finite
  at::Tensor diffusion;      ///< a [S] >= 0: the least u_xx coefficient within the limit
                             ///< (0 for a well-posed sample; not finite when growth is not)
  double limit_e_folds = 0;  ///< ln(amplification_limit)
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const WellPosednessOptions& options);

/// The check for every sample along u0 [n] on `grid`.
WellPosedness check_well_posedness(const gp::FunctionSamples& samples,
                                   const pde::PeriodicGrid& grid, const at::Tensor& u0,
                                   const WellPosednessOptions& options);

/// The same on a window's Chebyshev grid along u0 [n+1] (solve/bounded_ensemble.h's root
/// inputs), over the wavenumbers of a periodic grid of n points on the window's length,
/// k_j = 2 pi j / (b - a), j = 0..n/2: the bounded ensemble's count of conditions checks the
/// ends, this the interior's frozen coefficients (dealias unused).
WellPosedness check_well_posedness(const gp::FunctionSamples& samples,
                                   const pde::ChebyshevGrid& grid, const at::Tensor& u0,
                                   const WellPosednessOptions& options);

/// growth [S] of linearisations c [S, D] over the wavenumbers k [W] (k[0] = 0) and horizon
/// t_end: t_end max_{j > 0} (Re lambda(k_j) - Re lambda(0)).
at::Tensor symbol_growth(const at::Tensor& linearisation, const at::Tensor& wavenumbers,
                         double t_end);

/// a [S] >= 0 of linearisations c [S, D] over the wavenumbers k [W] (k[0] = 0): the least
/// diffusion coefficient whose -a k^2 keeps t_end (Re lambda(k) - Re lambda(0)) at or below
/// limit_e_folds for every k > 0.
at::Tensor stabilising_diffusion(const at::Tensor& linearisation, const at::Tensor& wavenumbers,
                                 double t_end, double limit_e_folds);

}  // namespace bhpm::solve
