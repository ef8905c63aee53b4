#include "gp/exact_gp.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "gp/argument_checks.h"
#include "gp/cholesky.h"

namespace bhpm::gp {

namespace {
const char* const kExactGpName = "exact GP";
}

ExactGpImpl::ExactGpImpl(std::shared_ptr<Mean> mean, std::shared_ptr<Kernel> kernel,
                         std::shared_ptr<GaussianLikelihoodImpl> likelihood, const at::Tensor& x,
                         const at::Tensor& y) {
  require_gp_parts(mean.get(), kernel.get(), likelihood.get(), kExactGpName);
  mean_ = register_module("mean", std::move(mean));
  kernel_ = register_module("kernel", std::move(kernel));
  likelihood_ = register_module("likelihood", std::move(likelihood));
  set_train_data(x, y);
}

void ExactGpImpl::set_train_data(const at::Tensor& x, const at::Tensor& y) {
  require_matrix(x, -1, kernel_->dimensions(), kExactGpName, "training inputs x");
  require_vector(y, x.size(0), kExactGpName, "training targets y");
  x_ = x;
  y_ = y;
}

ExactGpFactor ExactGpImpl::factorize() const {
  const std::int64_t n = x_.size(0);
  const at::Tensor k = kernel_->matrix(x_, x_) + likelihood_->variance() * at::eye(n, x_.options());
  const CholeskyFactor factor = robust_cholesky(k, "K_XX + sigma^2 I (exact GP training inputs)");
  const at::Tensor residual = (y_ - mean_->forward(x_)).unsqueeze(1);
  const at::Tensor alpha = at::cholesky_solve(residual, factor.lower).squeeze(1);
  return {factor.lower, alpha, factor.relative_jitter};
}

at::Tensor ExactGpImpl::log_marginal_likelihood() const {
  const ExactGpFactor factor = factorize();
  const at::Tensor residual = y_ - mean_->forward(x_);
  const double n = static_cast<double>(x_.size(0));
  return -0.5 * at::dot(residual, factor.alpha) - at::log(factor.lower.diagonal()).sum() -
         0.5 * n * std::log(2.0 * M_PI);
}

std::pair<at::Tensor, at::Tensor> ExactGpImpl::project(const ExactGpFactor& factor,
                                                       const at::Tensor& x_star) const {
  require_matrix(x_star, -1, kernel_->dimensions(), kExactGpName, "test inputs x_star");
  const at::Tensor k_x_star = kernel_->matrix(x_, x_star);
  const at::Tensor mean = mean_->forward(x_star) + at::mv(k_x_star.t(), factor.alpha);
  const at::Tensor v = at::linalg_solve_triangular(factor.lower, k_x_star, /*upper=*/false);
  return {v, mean};
}

MultivariateNormal ExactGpImpl::posterior(const at::Tensor& x_star) const {
  const auto [v, mean] = project(factorize(), x_star);
  const at::Tensor covariance = kernel_->matrix(x_star, x_star) - at::mm(v.t(), v);
  return {mean, covariance};
}

MarginalNormal ExactGpImpl::marginals(const at::Tensor& x_star) const {
  return marginals(x_star, factorize());
}

MarginalNormal ExactGpImpl::marginals(const at::Tensor& x_star, const ExactGpFactor& factor) const {
  const auto [v, mean] = project(factor, x_star);
  const at::Tensor variance = (kernel_->diagonal(x_star) - v.square().sum(0)).clamp_min(0.0);
  return {mean, variance};
}

}  // namespace bhpm::gp
