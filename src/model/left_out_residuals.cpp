#include "model/left_out_residuals.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bhpm::model {

namespace {

/// Marginals of q(f) at inputs [P, D], in chunks of `chunk` rows to bound the [M, chunk]
/// products.
gp::MarginalNormal marginals_in_chunks(const gp::SparseVariationalGpImpl& root,
                                       const at::Tensor& inputs, std::int64_t chunk = 8192) {
  std::vector<at::Tensor> means, variances;
  for (std::int64_t start = 0; start < inputs.size(0); start += chunk) {
    const gp::MarginalNormal part =
        root.marginals(inputs.slice(0, start, std::min(inputs.size(0), start + chunk)));
    means.push_back(part.mean);
    variances.push_back(part.variance);
  }
  return {at::cat(means), at::cat(variances)};
}

}  // namespace

std::vector<gp::ScoredResiduals> left_out_residuals(BhpmModelImpl& model, const LeafData& data) {
  if (data.leaves() < 2)
    throw std::invalid_argument("left-out residuals: leaving one experiment out needs 2 (got " +
                                std::to_string(data.leaves()) + ")");
  const at::NoGradGuard no_grad;
  gp::SparseVariationalGpImpl& root = model.root();
  const at::Tensor trained_mean = root.variational_mean().clone();
  const at::Tensor trained_lower = root.variational_cholesky().clone();
  const std::int64_t points = data.points();
  std::vector<gp::ScoredResiduals> scored;
  for (std::int64_t e = 0; e < data.leaves(); ++e) {
    model.set_optimal_root_posterior(data, {e});
    const auto [rows, input_noise] = model.root_rows(data);
    // Rows are leaf by leaf (model/root_data.h): leaf e owns rows [e P, (e + 1) P).
    const at::Tensor inputs = rows.inputs.slice(0, e * points, (e + 1) * points);
    const at::Tensor targets = rows.targets.slice(0, e * points, (e + 1) * points);
    const gp::MarginalNormal posterior = marginals_in_chunks(root, inputs);
    scored.push_back(
        {targets - posterior.mean, posterior.variance.clamp_min(0.0),
         root.likelihood()->variance() + input_noise.slice(0, e * points, (e + 1) * points)});
  }
  root.set_variational_distribution(trained_mean, trained_lower);
  return scored;
}

}  // namespace bhpm::model
