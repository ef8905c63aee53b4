#pragma once
/// Pathwise samples of a sparse GP's posterior q(f) (Wilson, Borovitskiy, Terenin,
/// Mostowsky and Deisenroth 2020, "Efficiently sampling functions from Gaussian process
/// posteriors", Eq. 13): a sample is a prior draw plus a data-driven update,
///   f_s(v) = mu(v) + phi(v) . w_s + k(v, Z) K_zz^{-1} (u_s - mu(Z) - phi(Z) . w_s),
/// with u_s ~ q(u) the inducing outputs and phi . w_s, w_s ~ N(0, I), a random-feature
/// draw of the zero-mean prior (Rahimi and Recht 2007), phi the kernel's own
/// (Kernel::random_features, gp/random_features.h): for the ARD RBF kernel F random Fourier
/// features (gp/fourier_features.h); for rbf+quadratic those and the quadratic part's P exact
/// features, so w_s ~ N(0, I_{F+P}). Each sample is a
/// whole function, evaluated in O(F + M) per point, with no conditioning loop; its
/// distribution matches q(f) up to the feature approximation of the prior.
///
/// The exact GP's posterior (gp/exact_gp.h) is sampled the same way with its training
/// inputs X for Z and the update of Eq. 13 itself:
///   f_s(v) = mu(v) + phi(v) . w_s + k(v, X) K^{-1} (y - mu(X) - phi(X) . w_s - eps_s),
/// K = K_XX + sigma^2 I, eps_s ~ N(0, sigma^2 I) (the likelihood's noise drawn with the prior).
///
/// The frequencies and phases are shared by the S samples (drawn from
/// derive_seed(seed, "pathwise_features", 0)); sample s draws w_s and u_s from
/// derive_seed(seed, "pathwise_sample", s), so sample s is the same whatever S; with
/// first_sample = r the S drawn are samples r, .., r + S - 1 of that sequence (a share of
/// an ensemble solved by several processes, solve/predictor.h).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>

#include "gp/exact_gp.h"
#include "gp/function_samples.h"
#include "gp/kernel.h"
#include "gp/mean.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::gp {

struct PathwiseOptions {
  std::int64_t features = 1024;  ///< F (>= 1): random features of the prior
  std::uint64_t seed = 0;
  std::int64_t first_sample = 0;  ///< >= 0: the index in the sequence of the first sample drawn
  /// c > 0: the exact GP's samples deviate from its posterior mean c times as much,
  /// f_s = m + c (f_s^(1) - m), by drawing w_s and eps_s c times as large (a spread
  /// inflation kappa = c^2, pipeline/system_calibration.h); the sparse GP's take 1 only (its
  /// spread is scaled through q(u): gp/inflated_posterior.h).
  double deviation_scale = 1.0;
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const PathwiseOptions& options);

class PathwiseSamples final : public FunctionSamples {
 public:
  /// `count` (>= 1) draws from q(f) of `gp`, with its kernel's random features. Throws
  /// CholeskyError when K_zz cannot be factored.
  PathwiseSamples(const SparseVariationalGpImpl& gp, std::int64_t count,
                  const PathwiseOptions& options);
  /// `count` (>= 1) draws from the exact `gp`'s posterior, `factor` = gp.factorize().
  PathwiseSamples(const ExactGpImpl& gp, const ExactGpFactor& factor, std::int64_t count,
                  const PathwiseOptions& options);
  std::int64_t count() const override { return weights_.size(0); }
  std::int64_t dimensions() const override { return inducing_inputs_.size(1); }
  /// f_s(v[s]) [S, P] for v [S, P, D].
  at::Tensor evaluate(const at::Tensor& v) const override;
  /// The same features and data with members' weights and updates.
  std::shared_ptr<const FunctionSamples> select(const at::Tensor& members) const override;
  /// phi(v) [N, F (+ P)] for v [N, D].
  at::Tensor features(const at::Tensor& v) const { return features_->evaluate(v); }

 private:
  std::shared_ptr<Mean> mean_;
  std::shared_ptr<Kernel> kernel_;
  at::Tensor inducing_inputs_;                      ///< Z [M, D] (the exact GP: X [N, D])
  std::shared_ptr<const RandomFeatures> features_;  ///< phi, shared by the S samples
  at::Tensor weights_;                              ///< w [S, F (+ P)]
  at::Tensor update_;  ///< K_zz^{-1} (u_s - mu(Z) - phi(Z) w_s) as rows [S, M]
};

}  // namespace bhpm::gp
