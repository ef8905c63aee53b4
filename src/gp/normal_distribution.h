#pragma once
/// Gaussian summaries returned by the GPs: a joint normal (mean and full covariance) and
/// independent marginals (mean and variance per point).

#include <ATen/core/Tensor.h>

namespace bhpm::gp {

/// N(mean, covariance): mean [N], covariance [N, N].
struct MultivariateNormal {
  at::Tensor mean;
  at::Tensor covariance;
};

/// Marginals N(mean_i, variance_i): mean [N], variance [N].
struct MarginalNormal {
  at::Tensor mean;
  at::Tensor variance;
};

}  // namespace bhpm::gp
