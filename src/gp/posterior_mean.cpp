#include "gp/posterior_mean.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

namespace bhpm::gp {

PosteriorMean::PosteriorMean(const SparseVariationalGpImpl& gp, std::int64_t count)
    : count_(count),
      mean_(gp.mean()),
      kernel_(gp.kernel()),
      inducing_inputs_(gp.inducing_inputs().detach()),
      weights_(gp.mean_weights().detach()) {
  if (count < 1)
    throw std::invalid_argument("posterior mean: count must be >= 1 (got " + std::to_string(count) +
                                ")");
}

at::Tensor PosteriorMean::evaluate(const at::Tensor& v) const {
  const std::int64_t members = v.size(0);
  const at::Tensor prior = mean_->forward(v.reshape({-1, v.size(-1)})).view({members, v.size(1)});
  return prior + kernel_->batched_weighted_sum(v, inducing_inputs_.expand({members, -1, -1}),
                                               weights_.expand({members, -1}));
}

}  // namespace bhpm::gp
