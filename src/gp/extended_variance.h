#pragma once
/// The conditioned variance at fixed inputs after adding conditioning inputs, by a block
/// update of the conditioned GP's Cholesky factor instead of a new factorisation (paper
/// section 2.3, Algorithm 1's step 3 evaluates it for every greedy pick and Adam step).
///
/// With K_cc = L L^T the current factor, for inputs v [P, D] and new inputs X [m, D]:
///   W = L^{-1} K_cv [n, P],  B = L^{-1} K_cX [n, m],
///   S = K_XX - B^T B = L_S L_S^T (the Schur complement: the variance of f(X) given V_c),
///   k_{c u X}(v, v) = k_c(v, v) - |L_S^{-1} (K_Xv - B^T W)|^2   (column sums),
/// the factor of K on [V_c; X] being [[L, 0], [B^T, L_S]]. W and k_c(v, v) are formed once, so
/// one evaluation costs O(m n P) instead of the O((n + m)^2 P) of factoring afresh
/// (gp::conditioned_variance), with the same values to rounding where neither needs jitter.

#include <ATen/core/Tensor.h>

#include "gp/conditioned_gp.h"

namespace bhpm::gp {

class ExtendedVariance {
 public:
  /// For `current` (kept by reference: it must outlive this) at inputs v [P, D].
  ExtendedVariance(const ConditionedGp& current, const at::Tensor& v);
  /// k_c(v_p, v_p) [P] of `current` further conditioned on X [m, D] (m >= 0), clamped at 0;
  /// differentiable with respect to X. Throws CholeskyError when S cannot be factored.
  at::Tensor operator()(const at::Tensor& new_inputs) const;

 private:
  const ConditionedGp& gp_;
  at::Tensor v_;         ///< [P, D]
  at::Tensor whitened_;  ///< W = L^{-1} K_cv [n, P]
  at::Tensor current_;   ///< k_c(v, v) [P], not clamped
};

}  // namespace bhpm::gp
