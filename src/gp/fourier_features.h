#pragma once
/// Random Fourier features of the ARD RBF kernel k(x, x') = s^2 exp(-|(x - x') / l|^2 / 2)
/// (Rahimi and Recht 2007):
///   phi_j(v) = s sqrt(2 / F) cos(omega_j . v + b_j),  omega_j ~ N(0, diag(1 / l^2)),
///   b_j ~ U[0, 2 pi),  j = 1..F,
/// so phi(v) . phi(v') -> k(v, v') as F grows (error O(F^{-1/2})).

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "gp/random_features.h"

namespace bhpm::gp {

class FourierFeatures : public RandomFeatures {
 public:
  /// F = `count` features for lengthscales l [D] (on the device the features are evaluated
  /// on) and signal variance s^2 > 0: omega [D, F] then b [F] drawn from util::Rng(seed).
  FourierFeatures(const at::Tensor& lengthscales, double signal_variance, std::int64_t count,
                  std::uint64_t seed);

  /// phi(v) [N, F] for v [N, D]: b + v omega summed over the D inputs elementwise, so that
  /// a row's value does not depend on how many rows are evaluated together (a matrix
  /// product's rounding may).
  at::Tensor evaluate(const at::Tensor& v) const override;
  std::int64_t count() const override { return phases_.size(0); }

 private:
  at::Tensor frequencies_;  ///< omega [D, F]
  at::Tensor phases_;       ///< b [F]
  double scale_ = 0;        ///< s sqrt(2 / F)
};

}  // namespace bhpm::gp
