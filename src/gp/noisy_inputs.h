#pragma once
/// Errors in the inputs of a GP regression, to first order (McHutchon and Rasmussen 2011,
/// "Gaussian process training with input noise", NIGP; docs/training.md, "Leaf
/// uncertainty"). A target y observed with the input v = v_true + e_v, where the errors of
/// z = (v, y) have covariance C [D + 1, D + 1] (the input and target errors may be
/// correlated, as they are when both are derivatives of one fitted leaf), has the residual
///   y - f(v) = e_y - grad f(v) . e_v + O(|e_v|^2),
/// of variance a^T C a with a = (-grad f(v), 1): the extra likelihood variance of that
/// point. NIGP evaluates grad f at the posterior mean m and holds it fixed in each step.

#include <ATen/core/Tensor.h>

namespace bhpm::gp {

class SparseVariationalGpImpl;

/// a_i = (-gradient_i, 1) [N, D + 1] for gradient [N, D]: the residual's coefficients on
/// the errors of z = (v, y).
at::Tensor noisy_input_coefficients(const at::Tensor& gradient);

/// a_i^T C_i a_i [N] with a_i = (-gradient_i, 1), for gradient [N, D] and covariance
/// [N, D + 1, D + 1]. Throws std::invalid_argument for other shapes.
at::Tensor first_order_input_noise_variance(const at::Tensor& gradient,
                                            const at::Tensor& covariance);

/// grad_v m(v) [N, D] of the posterior mean of `gp` at x [N, D]; detached. By autograd
/// through the mean alone, m(v) = mu(v) + k(v, Z) alpha with alpha = L_zz^{-T} m (whitened
/// q(v) = N(m, S)): a kernel matrix [N, M] and its backward, a third of what the
/// marginals' A = L_zz^{-1} K_zX and variances would cost.
at::Tensor posterior_mean_gradient(const SparseVariationalGpImpl& gp, const at::Tensor& x);

}  // namespace bhpm::gp
