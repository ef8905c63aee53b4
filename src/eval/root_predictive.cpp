#include "eval/root_predictive.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <vector>

namespace bhpm::eval {

gp::MarginalNormal root_predictive(const gp::SparseVariationalGpImpl& root,
                                   const at::Tensor& inputs, PredictiveNoise included,
                                   std::int64_t chunk) {
  at::NoGradGuard no_grad;
  const at::Device device = root.inducing_inputs().device();
  const at::Tensor noise = included == PredictiveNoise::kIncluded
                               ? root.likelihood()->variance()
                               : at::zeros({}, inputs.options().device(device));
  std::vector<at::Tensor> means, variances;
  for (std::int64_t start = 0; start < inputs.size(0); start += chunk) {
    const at::Tensor rows = inputs.slice(0, start, std::min(inputs.size(0), start + chunk));
    const gp::MarginalNormal part = root.marginals(rows.to(device));
    means.push_back(part.mean.to(inputs.device()));
    variances.push_back((part.variance + noise).to(inputs.device()));
  }
  return {at::cat(means), at::cat(variances)};
}

}  // namespace bhpm::eval
