#include "model/leaf_laplace.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gp/noisy_inputs.h"
#include "nn/taylor_forward.h"
#include "util/number_format.h"

namespace bhpm::model {

namespace {

/// Phi^T Phi [L, F, F] of the value rows of J [L, S, P, F].
at::Tensor value_gram(const at::Tensor& jacobian) {
  const at::Tensor phi = jacobian.select(1, 0);  // [L, P, F]
  return at::bmm(phi.transpose(1, 2), phi);
}

}  // namespace

at::Tensor output_layer_jacobian(const at::Tensor& hidden_streams) {
  const at::Tensor streams = hidden_streams.detach();
  at::Tensor bias = at::zeros_like(streams.narrow(3, 0, 1));
  bias.select(1, 0).fill_(1.0);
  return at::cat({streams, bias}, 3);
}

at::Tensor last_layer_covariance(const at::Tensor& gram, const at::Tensor& noise_scale,
                                 double prior_variance) {
  if (!(prior_variance > 0.0 && std::isfinite(prior_variance)))
    throw std::invalid_argument(
        "last-layer Laplace: prior_variance must be a positive number (got " +
        util::format_significant(prior_variance, 6) + ")");
  const torch::NoGradGuard no_grad;
  const at::Tensor noise_precision = noise_scale.detach().pow(-2).view({-1, 1, 1});
  const at::Tensor identity = at::eye(gram.size(1), gram.options());
  const at::Tensor precision = gram.detach() * noise_precision + identity / prior_variance;
  return at::cholesky_inverse(at::linalg_cholesky(precision));
}

at::Tensor last_layer_covariance(const LeafModelImpl& leaves, const LeafData& data,
                                 double prior_variance, std::int64_t chunk) {
  validate(data, "last-layer Laplace data");
  const torch::NoGradGuard no_grad;
  at::Tensor gram;
  for (std::int64_t start = 0; start < data.points(); start += chunk) {
    const std::int64_t count = std::min(chunk, data.points() - start);
    const at::Tensor part = value_gram(output_layer_jacobian(
        nn::taylor_hidden_streams(leaves.network(), data.x.narrow(1, start, count),
                                  data.t.narrow(1, start, count), data.boxes, 0)));
    gram = gram.defined() ? gram + part : part;
  }
  return last_layer_covariance(gram, leaves.noise_scale(), prior_variance);
}

at::Tensor root_row_covariance(const at::Tensor& jacobian, const at::Tensor& covariance) {
  const torch::NoGradGuard no_grad;
  const at::Tensor rows = jacobian.permute({0, 2, 1, 3});                  // [L, P, S, F]
  const at::Tensor projected = at::matmul(rows, covariance.unsqueeze(1));  // [L, P, S, F]
  return at::matmul(projected, rows.transpose(2, 3));                      // [L, P, S, S]
}

at::Tensor root_row_covariance(const LeafModelImpl& leaves, const at::Tensor& covariance,
                               const LeafData& points, int order) {
  const std::int64_t features = leaves.network().options().width + 1;
  if (covariance.dim() != 3 || covariance.size(0) != points.leaves() ||
      covariance.size(1) != features || covariance.size(2) != features)
    throw std::invalid_argument("last-layer Laplace: the covariance must be [L, W + 1, W + 1] = [" +
                                std::to_string(points.leaves()) + ", " + std::to_string(features) +
                                ", " + std::to_string(features) + "]");
  const torch::NoGradGuard no_grad;
  return root_row_covariance(output_layer_jacobian(nn::taylor_hidden_streams(
                                 leaves.network(), points.x, points.t, points.boxes, order)),
                             covariance);
}

at::Tensor leaf_input_noise_variance(const LeafModelImpl& leaves,
                                     const gp::SparseVariationalGpImpl& root,
                                     const at::Tensor& hidden_streams, const RootData& rows,
                                     std::int64_t points_per_leaf) {
  const at::Tensor jacobian = output_layer_jacobian(hidden_streams);  // [L, S, B, F]
  const std::int64_t leaf_count = jacobian.size(0), streams = jacobian.size(1),
                     batch = jacobian.size(2);
  const double batch_scale = static_cast<double>(points_per_leaf) / static_cast<double>(batch);
  const at::Tensor covariance =
      last_layer_covariance(batch_scale * value_gram(jacobian), leaves.noise_scale());
  // a^T J Sigma J^T a = b^T Sigma b with b = J^T a [L, B, F]: no [S, S] block per row.
  const at::Tensor a = gp::noisy_input_coefficients(gp::posterior_mean_gradient(root, rows.inputs))
                           .view({leaf_count, batch, streams});
  const torch::NoGradGuard no_grad;
  const at::Tensor b = at::einsum("lbs,lsbf->lbf", {a, jacobian});
  return (at::bmm(b, covariance) * b).sum(2).reshape({-1});
}

}  // namespace bhpm::model
