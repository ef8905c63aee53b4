#pragma once
/// A GP's posterior mean as one function (gp/function_samples.h, count 1):
///   m(v) = mu(v) + k(v, Z) alpha,
/// for the sparse GP alpha = L_zz^{-T} m_q (SparseVariationalGpImpl::mean_weights), for the
/// exact GP Z = X, its training inputs, and alpha = K^{-1} (y - mu(X)) (gp/exact_gp.h). The centre
/// about which spread inflation scales the samples (gp/inflated_samples.h), and the operator whose
/// Jacobian at the initial condition splits a prediction's stiff linear part off
/// (solve/predictor.h): unlike the samples' average, it does not depend on which members are solved
/// together.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "gp/exact_gp.h"
#include "gp/function_samples.h"
#include "gp/kernel_expansion.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::gp {

class PosteriorMean final : public FunctionSamples {
 public:
  /// m of `gp`'s current posterior.
  explicit PosteriorMean(const SparseVariationalGpImpl& gp);
  /// m of the exact `gp`'s posterior, `factor` = gp.factorize().
  PosteriorMean(const ExactGpImpl& gp, const ExactGpFactor& factor);
  std::int64_t count() const override { return 1; }
  std::int64_t dimensions() const override { return inducing_inputs_.size(1); }
  /// m(v) [S', P] for v [S', P, D]: every row block gets the same m, so any S' is accepted
  /// (InflatedSamples evaluates it at its S members' rows).
  at::Tensor evaluate(const at::Tensor& v) const override;
  /// m's kernel expansion (whatever s), where the mean and kernel have one
  /// (gp/kernel_expansion.h) on the CPU; null otherwise.
  const KernelExpansion* expansion(std::int64_t /*s*/) const override {
    return expansion_ ? &*expansion_ : nullptr;
  }

 private:
  std::shared_ptr<Mean> mean_;
  std::shared_ptr<Kernel> kernel_;
  at::Tensor inducing_inputs_;                ///< Z [M, D]
  at::Tensor weights_;                        ///< alpha [M]
  std::optional<KernelExpansion> expansion_;  ///< m, where it has one
};

}  // namespace bhpm::gp
