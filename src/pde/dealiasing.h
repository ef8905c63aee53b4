#pragma once
/// How a pseudo-spectral solver keeps the product N(u, u_x, ..) from aliasing
/// (docs/solver.md, "Dealiasing").
///
/// On n points a product of two fields with modes up to n/2 has modes up to n, which the
/// grid folds back onto |k| < n/2. Three treatments of N_hat = F[N(F^-1 v_0, F^-1 v_1, ..)]:
///   "pad"       transforms to m >= 3n/2 points, evaluates N there and keeps the first
///               n/2 + 1 modes (the 3/2 rule: exact for quadratic N, every resolved mode
///               kept); the Nyquist mode of N_hat is zeroed.
///   "truncate"  evaluates N on the n points and zeroes N_hat above n/3 (the 2/3 rule:
///               exact for quadratic N on the modes it keeps, a third of them lost).
///   "none"      evaluates N on the n points and keeps everything (aliased).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// "pad", "truncate", "none".
const std::vector<std::string>& dealiasing_names();

/// N_hat [B, n/2+1] from spectra of N's arguments, on one grid with one treatment.
class DealiasedProduct {
 public:
  /// Throws std::invalid_argument unless `method` is one of dealiasing_names().
  DealiasedProduct(const PeriodicGrid& grid, const std::string& method);

  /// Points on which N is evaluated: ceil(3n/2) rounded up to even for "pad", else n.
  std::int64_t product_points() const { return product_points_; }
  /// Wavenumbers kept in N_hat, a mask [n/2+1] of 0 and 1.
  const at::Tensor& kept_modes() const { return kept_; }
  /// "pad": the factors [n/2+1] that scale a spectrum before its inverse transform on the
  /// product's points, and N_hat's after the forward one (kept_modes() n/m); else undefined.
  const at::Tensor& padding() const { return padding_; }
  const at::Tensor& unpadding() const { return unpadding_; }

  /// spectra [..., n/2+1] complex -> values [..., product_points()] real.
  at::Tensor to_physical(const at::Tensor& spectra) const;
  /// N [B, product_points()] real -> N_hat [B, n/2+1] complex, the aliased modes removed.
  at::Tensor to_spectral(const at::Tensor& values) const;

 private:
  PeriodicGrid grid_;
  std::int64_t product_points_;
  bool truncate_ = false;
  at::Tensor kept_;       ///< [n/2+1] double
  at::Tensor padding_;    ///< [n/2+1]: m/n, at the Nyquist mode m/(2n); "pad" only
  at::Tensor unpadding_;  ///< [n/2+1]: kept_ n/m; "pad" only
};

}  // namespace bhpm::pde
