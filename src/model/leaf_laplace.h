#pragma once
/// Last-layer Laplace approximation of the leaves (docs/training.md, "Leaf uncertainty"):
/// how well each leaf's measurements determine u and the derivatives the root learns from,
/// and what that uncertainty adds to the root's likelihood.
///
/// With the hidden layers held at their trained values, leaf i is linear in its output
/// layer w_i = (W_{H+1}, b_{H+1}) [W + 1] (W = width): u_i(x, t) = phi_i(x, t) . w_i with
/// phi = (h_H, 1). Its Gaussian likelihood (scale sigma_i, paper Eq. 2) over its P
/// measurements and the prior w_i ~ N(0, prior_variance I) give the Gaussian posterior
///   Sigma_i = (Phi_i^T Phi_i / sigma_i^2 + I / prior_variance)^{-1}   [W + 1, W + 1],
/// Phi_i [P, W + 1] the features at the measurements: exact for this linear model (the
/// Hessian of the negative log-likelihood is Phi^T Phi / sigma^2 at every w). Every
/// derivative of u is linear in w as well (nn::taylor_hidden_streams), so the root row of
/// a point, z = (u, u_x, ..., d^K u/dx^K, u_t) = J w with J [K + 2, W + 1] (its rows the
/// last hidden layer's Taylor streams, 1 in the bias column of u's row only), has
///   Cov(z) = J Sigma_i J^T   [K + 2, K + 2]
/// under this posterior: the covariance of the root's inputs v = z_0..K, of its target
/// u_t = z_{K+1}, and between them.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/root_data.h"

namespace bhpm::gp {
class SparseVariationalGpImpl;
}

namespace bhpm::model {

/// The prior variance of the output layer's weights (a unit Gaussian: the data, not the
/// prior, set Sigma wherever the features are informative).
inline constexpr double kOutputWeightPriorVariance = 1.0;

/// J [L, S, P, W + 1] from the last hidden layer's streams [L, S, P, W]: the streams and
/// the bias column (1 in the value stream, 0 in the derivative streams); detached.
at::Tensor output_layer_jacobian(const at::Tensor& hidden_streams);

/// Sigma [L, W + 1, W + 1] = (gram / sigma_i^2 + I / prior_variance)^{-1} for
/// gram = Phi^T Phi [L, W + 1, W + 1] and noise_scale sigma [L]; detached. Throws
/// std::invalid_argument unless prior_variance > 0.
at::Tensor last_layer_covariance(const at::Tensor& gram, const at::Tensor& noise_scale,
                                 double prior_variance = kOutputWeightPriorVariance);

/// Sigma of every leaf from the measurements `data` (their x and t), features evaluated
/// in chunks of at most `chunk` points per leaf; detached. Throws as validate(data).
at::Tensor last_layer_covariance(const LeafModelImpl& leaves, const LeafData& data,
                                 double prior_variance = kOutputWeightPriorVariance,
                                 std::int64_t chunk = 4096);

/// Cov(z) = J Sigma J^T [L, P, S, S] for J [L, S, P, W + 1] and Sigma [L, W + 1, W + 1].
at::Tensor root_row_covariance(const at::Tensor& jacobian, const at::Tensor& covariance);

/// Cov(z) [L, P, K + 2, K + 2] at the points of `points` (x and t), K = order; detached.
/// Throws std::invalid_argument for a covariance of another shape than [L, W + 1, W + 1],
/// and as nn::taylor_forward.
at::Tensor root_row_covariance(const LeafModelImpl& leaves, const at::Tensor& covariance,
                               const LeafData& points, int order);

/// The extra likelihood variance [L B] of the root rows `rows` of a minibatch of B of the
/// P = points_per_leaf measurements of each leaf (rows leaf by leaf, as root_data), from
/// the minibatch's last hidden layer streams [L, S, B, W]: the first-order noisy-input
/// term a^T Cov(z) a, a = (-grad m(v), 1) (gp/noisy_inputs.h), m the root's posterior
/// mean, Cov(z) from Sigma with the Gram matrix estimated by the minibatch,
/// Phi^T Phi ~ (P / B) Phi_B^T Phi_B (so that a resumed run repeats every step); detached.
at::Tensor leaf_input_noise_variance(const LeafModelImpl& leaves,
                                     const gp::SparseVariationalGpImpl& root,
                                     const at::Tensor& hidden_streams, const RootData& rows,
                                     std::int64_t points_per_leaf);

}  // namespace bhpm::model
