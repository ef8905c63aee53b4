#include "gp/posterior_mean.h"

#include <ATen/ATen.h>

namespace bhpm::gp {

PosteriorMean::PosteriorMean(const SparseVariationalGpImpl& gp)
    : mean_(gp.mean()),
      kernel_(gp.kernel()),
      inducing_inputs_(gp.inducing_inputs().detach()),
      weights_(gp.mean_weights().detach()),
      expansion_(expand_weighted_sum(*mean_, *kernel_, inducing_inputs_, weights_)) {}

PosteriorMean::PosteriorMean(const ExactGpImpl& gp, const ExactGpFactor& factor)
    : mean_(gp.mean()),
      kernel_(gp.kernel()),
      inducing_inputs_(gp.train_inputs().detach()),
      weights_(factor.alpha.detach()),
      expansion_(expand_weighted_sum(*mean_, *kernel_, inducing_inputs_, weights_)) {}

at::Tensor PosteriorMean::evaluate(const at::Tensor& v) const {
  const std::int64_t members = v.size(0);
  const at::Tensor prior = mean_->forward(v.reshape({-1, v.size(-1)})).view({members, v.size(1)});
  return prior + kernel_->batched_weighted_sum(v, inducing_inputs_.expand({members, -1, -1}),
                                               weights_.expand({members, -1}));
}

}  // namespace bhpm::gp
