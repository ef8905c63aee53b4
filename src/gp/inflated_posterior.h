#pragma once
/// The sparse GP's posterior with the covariance of its inducing outputs scaled by a
/// calibrated factor (docs/calibration.md, "Spread inflation"; solve/operator_calibration.h
/// fits it): q(u) = N(mu(Z) + L_zz m, L_zz S L_zz^T) becomes
///   q_kappa(u) = N(mu(Z) + L_zz m, kappa L_zz S L_zz^T),  kappa > 0,
/// the prior, Z and the mean unchanged. Its marginal variance is
///   var q_kappa(f(v)) = [k(v, v) - k(v, Z) K_zz^{-1} k(Z, v)]
///                       + kappa k(v, Z) L_zz^{-T} S L_zz^{-1} k(Z, v),
/// the prior's remainder given u plus kappa times what q(u) leaves: kappa times the
/// posterior's where the data pinned f down through the inducing outputs (the second term
/// dominates at the training rows), the prior's own where v is far from every inducing
/// input (both k(v, Z) terms vanish), which the training experiments that kappa is fitted
/// on say nothing about. Samples drawn from it (Algorithm 1 and pathwise alike) carry the
/// calibrated spread at no cost per evaluation. `bhpm predict` draws from it to widen the
/// spread (kappa > 1; solve/predictor.h has the rule).

#include "gp/sparse_variational_gp.h"

namespace bhpm::gp {

/// A GP sharing `gp`'s mean, kernel, likelihood and Z, with q_kappa(u): L_S scaled by
/// sqrt(`factor`). Throws std::invalid_argument for a factor that is not positive and
/// finite.
SparseVariationalGp inflated_posterior(const SparseVariationalGpImpl& gp, double factor);

}  // namespace bhpm::gp
