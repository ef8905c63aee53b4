#include "model/left_out_residuals.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/root_data.h"

namespace bhpm::model {

namespace {

/// m(v) [P] and f_s(v) - m(v) [S, P] at inputs [P, D], in chunks of `chunk` rows to bound
/// the samples' [S, chunk, F] features.
std::pair<at::Tensor, at::Tensor> mean_and_deviations(const gp::SparseVariationalGpImpl& root,
                                                      const gp::PathwiseSamples& samples,
                                                      const at::Tensor& inputs,
                                                      std::int64_t chunk = 512) {
  std::vector<at::Tensor> means, deviations;
  for (std::int64_t start = 0; start < inputs.size(0); start += chunk) {
    const at::Tensor rows = inputs.slice(0, start, std::min(inputs.size(0), start + chunk));
    const at::Tensor mean = root.marginals(rows).mean;
    const at::Tensor drawn = samples.evaluate(rows.unsqueeze(0).expand({samples.count(), -1, -1}));
    means.push_back(mean);
    deviations.push_back(drawn - mean.unsqueeze(0));
  }
  return {at::cat(means), at::cat(deviations, 1)};
}

}  // namespace

std::vector<gp::PosteriorResiduals> left_out_residuals(BhpmModelImpl& model, const LeafData& data,
                                                       std::int64_t samples,
                                                       const gp::PathwiseOptions& options) {
  if (data.leaves() < 2)
    throw std::invalid_argument("left-out residuals: leaving one experiment out needs 2 (got " +
                                std::to_string(data.leaves()) + ")");
  if (samples < 1)
    throw std::invalid_argument("left-out residuals: samples must be >= 1 (got " +
                                std::to_string(samples) + ")");
  const at::NoGradGuard no_grad;
  gp::SparseVariationalGpImpl& root = model.root();
  const at::Tensor trained_mean = root.variational_mean().clone();
  const at::Tensor trained_lower = root.variational_cholesky().clone();
  const RootData rows = root_data_detached(model.leaves(), data, model.order());
  const std::int64_t points = data.points();
  std::vector<gp::PosteriorResiduals> scored;
  for (std::int64_t e = 0; e < data.leaves(); ++e) {
    model.set_optimal_root_posterior(data, {e});
    const gp::PathwiseSamples drawn(root, samples, options);
    // Rows are leaf by leaf (model/root_data.h): leaf e owns rows [e P, (e + 1) P).
    const at::Tensor inputs = rows.inputs.slice(0, e * points, (e + 1) * points);
    const auto [mean, deviations] = mean_and_deviations(root, drawn, inputs);
    const nn::DomainBox& box = data.boxes[static_cast<std::size_t>(e)];
    scored.push_back({rows.targets.slice(0, e * points, (e + 1) * points) - mean, deviations,
                      data.x[e], data.t[e], box.x_min, box.x_max, box.t_min, box.t_max});
  }
  root.set_variational_distribution(trained_mean, trained_lower);
  return scored;
}

}  // namespace bhpm::model
