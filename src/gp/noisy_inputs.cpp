#include "gp/noisy_inputs.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <stdexcept>

#include "gp/cholesky.h"
#include "gp/sparse_variational_gp.h"

namespace bhpm::gp {

at::Tensor noisy_input_coefficients(const at::Tensor& gradient) {
  return at::cat({-gradient, at::ones_like(gradient.narrow(1, 0, 1))}, 1);
}

at::Tensor first_order_input_noise_variance(const at::Tensor& gradient,
                                            const at::Tensor& covariance) {
  if (gradient.dim() != 2 || covariance.dim() != 3 || covariance.size(0) != gradient.size(0) ||
      covariance.size(1) != gradient.size(1) + 1 || covariance.size(2) != gradient.size(1) + 1)
    throw std::invalid_argument(
        "noisy-input variance: needs gradient [N, D] and covariance [N, D + 1, D + 1]");
  const at::Tensor a = noisy_input_coefficients(gradient);
  return at::matmul(at::matmul(a.unsqueeze(1), covariance), a.unsqueeze(2)).view({-1});
}

at::Tensor posterior_mean_gradient(const SparseVariationalGpImpl& gp, const at::Tensor& x) {
  const at::Tensor& z = gp.inducing_inputs();
  at::Tensor alpha;
  {
    const at::NoGradGuard no_grad;
    const at::Tensor lower =
        robust_cholesky(gp.kernel()->matrix(z, z), "K_zz (sparse GP inducing inputs)").lower;
    alpha = at::linalg_solve_triangular(lower.t(), gp.variational_mean().detach().unsqueeze(1),
                                        /*upper=*/true);
  }
  const torch::AutoGradMode enable(true);
  const at::Tensor inputs = x.detach().requires_grad_(true);
  const at::Tensor mean = gp.mean()->forward(inputs) +
                          at::mm(gp.kernel()->matrix(inputs, z.detach()), alpha).squeeze(1);
  return torch::autograd::grad({mean.sum()}, {inputs})[0].detach();
}

}  // namespace bhpm::gp
