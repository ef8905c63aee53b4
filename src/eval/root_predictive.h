#pragma once
/// The root's predictive distribution of u_t at inputs v (paper section 3: the posterior of
/// f plus the likelihood noise, the normal whose density and intervals are scored):
///   y | v ~ N(mean_q(v), var_q(v) + sigma_f^2),
/// with q(f(v)) the sparse GP's marginal (gp/sparse_variational_gp.h); or, for the
/// calibration of f itself (what operator samples carry), q(f(v)) alone.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "gp/normal_distribution.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::eval {

/// Which variance a predictive carries.
enum class PredictiveNoise {
  kIncluded,  ///< var_q(v) + sigma_f^2: the distribution of a measured u_t
  kExcluded,  ///< var_q(v): the posterior of the operator f alone
};

/// Predictive marginals at inputs [P, K+1]: mean [P], variance [P] on the inputs' device;
/// computed on the root's device without a graph, in chunks of at most `chunk` rows to
/// bound memory (an [M, chunk] product).
gp::MarginalNormal root_predictive(const gp::SparseVariationalGpImpl& root,
                                   const at::Tensor& inputs,
                                   PredictiveNoise noise = PredictiveNoise::kIncluded,
                                   std::int64_t chunk = 32768);

}  // namespace bhpm::eval
