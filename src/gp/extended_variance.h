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
///
/// How low any m further inputs could bring the mean variance at v (least_mean): adding
/// inputs subtracts from Sigma = K_c(v, v) [P, P] a positive semi-definite matrix of rank at
/// most m and below Sigma, so by Weyl's inequalities lambda_i(Sigma - A) >= lambda_{i+m}(Sigma)
/// and
///   mean_p k_{c u X}(v_p, v_p) >= (1/P) sum_{i > m} lambda_i(Sigma)   for every X of m rows,
/// with equality where Sigma is diagonal and X holds the m inputs of largest variance.

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
  /// (1/P) sum_{i > count} lambda_i(Sigma): the least mean variance at v that any `count`
  /// further inputs could leave (0 when count >= P). The top eigenvalues come from two
  /// steps of subspace iteration on count + 8 columns, started from Sigma's columns of
  /// largest variance (Sigma applied as K_vv Q - W^T (W Q), O(P^2 count)); their Ritz
  /// values can only fall short of them (Ky Fan), so the value errs high by the
  /// iteration's error, and is exact where Sigma is diagonal or count + 8 >= P.
  double least_mean(std::int64_t count) const;

 private:
  const ConditionedGp& gp_;
  at::Tensor v_;         ///< [P, D]
  at::Tensor whitened_;  ///< W = L^{-1} K_cv [n, P]
  at::Tensor current_;   ///< k_c(v, v) [P], not clamped
};

}  // namespace bhpm::gp
