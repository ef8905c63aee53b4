#include "model/left_out_residuals.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gp/inflated_posterior.h"
#include "model/root_data.h"

namespace bhpm::model {

namespace {

/// m(v) [P] at inputs [P, D], in chunks of `chunk` rows.
at::Tensor chunked_mean(const gp::SparseVariationalGpImpl& root, const at::Tensor& inputs,
                        std::int64_t chunk = 512) {
  std::vector<at::Tensor> means;
  for (std::int64_t start = 0; start < inputs.size(0); start += chunk)
    means.push_back(
        root.marginals(inputs.slice(0, start, std::min(inputs.size(0), start + chunk))).mean);
  return at::cat(means);
}

/// f_s(v) - m(v) [S, P] at inputs [P, D], in chunks of `chunk` rows to bound the samples'
/// [S, chunk, F] features.
at::Tensor deviations_from(const at::Tensor& mean, const gp::PathwiseSamples& samples,
                           const at::Tensor& inputs, std::int64_t chunk = 512) {
  std::vector<at::Tensor> deviations;
  for (std::int64_t start = 0; start < inputs.size(0); start += chunk) {
    const std::int64_t end = std::min(inputs.size(0), start + chunk);
    const at::Tensor rows = inputs.slice(0, start, end);
    const at::Tensor drawn = samples.evaluate(rows.unsqueeze(0).expand({samples.count(), -1, -1}));
    deviations.push_back(drawn - mean.slice(0, start, end).unsqueeze(0));
  }
  return at::cat(deviations, 1);
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
  // Trained on every experiment: its residuals at e's rows are e's targets' own error.
  const at::Tensor in_sample = rows.targets - chunked_mean(root, rows.inputs);
  std::vector<gp::PosteriorResiduals> scored;
  for (std::int64_t e = 0; e < data.leaves(); ++e) {
    model.set_optimal_root_posterior(data, {e});
    const gp::PathwiseSamples drawn(root, samples, options);
    // The same draws from q(u) with twice its spread (gp/inflated_posterior.h): each
    // deviation grows by exactly the part that q(u) makes.
    const gp::PathwiseSamples doubled(*gp::inflated_posterior(root, 4.0), samples, options);
    // Rows are leaf by leaf (model/root_data.h): leaf e owns rows [e P, (e + 1) P).
    const at::Tensor inputs = rows.inputs.slice(0, e * points, (e + 1) * points);
    const at::Tensor mean = chunked_mean(root, inputs);
    const nn::DomainBox& box = data.boxes[static_cast<std::size_t>(e)];
    const at::Tensor deviations = deviations_from(mean, drawn, inputs);
    scored.push_back({rows.targets.slice(0, e * points, (e + 1) * points) - mean, deviations,
                      data.x[e], data.t[e], box.x_min, box.x_max, box.t_min, box.t_max,
                      in_sample.slice(0, e * points, (e + 1) * points),
                      deviations_from(mean, doubled, inputs) - deviations});
  }
  root.set_variational_distribution(trained_mean, trained_lower);
  return scored;
}

}  // namespace bhpm::model
