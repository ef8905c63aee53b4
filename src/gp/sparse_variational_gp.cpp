#include "gp/sparse_variational_gp.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "gp/argument_checks.h"
#include "gp/cholesky.h"
#include "gp/softplus.h"
#include "util/random.h"

namespace bhpm::gp {

namespace {

const char* const kSparseGpName = "sparse variational GP";

/// Copies `from`'s parameters into `to`'s, matched by name and shape.
void copy_parameters(const torch::nn::Module& from, torch::nn::Module& to, const char* part) {
  if (&from == &to) return;
  const auto source = from.named_parameters();
  auto target = to.named_parameters();
  if (source.size() != target.size())
    throw std::invalid_argument(std::string(kSparseGpName) + ": the exact GP's " + part + " has " +
                                std::to_string(source.size()) + " parameters, this one " +
                                std::to_string(target.size()));
  const at::NoGradGuard no_grad;
  for (auto& item : target) {
    const at::Tensor* value = source.find(item.key());
    if (value == nullptr || !value->sizes().equals(item.value().sizes()))
      throw std::invalid_argument(std::string(kSparseGpName) + ": the exact GP's " + part +
                                  " has no parameter '" + item.key() + "' of shape " +
                                  describe_tensor(item.value()));
    item.value().copy_(*value);
  }
}

}  // namespace

SparseVariationalGpImpl::SparseVariationalGpImpl(std::shared_ptr<Mean> mean,
                                                 std::shared_ptr<Kernel> kernel,
                                                 std::shared_ptr<GaussianLikelihoodImpl> likelihood,
                                                 const at::Tensor& inducing_inputs,
                                                 const SparseVariationalGpOptions& options) {
  require_gp_parts(mean.get(), kernel.get(), likelihood.get(), kSparseGpName);
  require_matrix(inducing_inputs, -1, kernel->dimensions(), kSparseGpName, "inducing inputs Z");
  mean_ = register_module("mean", std::move(mean));
  kernel_ = register_module("kernel", std::move(kernel));
  likelihood_ = register_module("likelihood", std::move(likelihood));
  const std::int64_t m = inducing_inputs.size(0);
  inducing_inputs_ = register_parameter("inducing_inputs", inducing_inputs.detach().clone(),
                                        options.train_inducing_inputs);
  const auto real = inducing_inputs.options();
  variational_mean_ = register_parameter("variational_mean", at::zeros({m}, real));
  // softplus(R_ii) = 1: L_S = I, q(v) = p(v).
  variational_cholesky_raw_ = register_parameter(
      "variational_cholesky_raw", at::eye(m, real) * inverse_softplus(1.0, "diagonal"));
}

at::Tensor SparseVariationalGpImpl::variational_cholesky() const {
  return variational_cholesky_raw_.tril(-1) +
         at::diag_embed(at::softplus(variational_cholesky_raw_.diagonal()));
}

at::Tensor SparseVariationalGpImpl::inverse_inducing_factor() const {
  const at::Tensor k_zz = kernel_->matrix(inducing_inputs_, inducing_inputs_);
  const at::Tensor lower = robust_cholesky(k_zz, "K_zz (sparse GP inducing inputs)").lower;
  return at::linalg_solve_triangular(lower, at::eye(lower.size(0), lower.options()),
                                     /*upper=*/false);
}

MarginalNormal SparseVariationalGpImpl::predict(const at::Tensor& x) const {
  require_matrix(x, -1, kernel_->dimensions(), kSparseGpName, "x");
  const at::Tensor a = at::mm(inverse_inducing_factor(), kernel_->matrix(inducing_inputs_, x));
  const at::Tensor b = at::mm(variational_cholesky().t(), a);
  const at::Tensor mean = mean_->forward(x) + at::mv(a.t(), variational_mean_);
  const at::Tensor variance = kernel_->diagonal(x) - a.square().sum(0) + b.square().sum(0);
  return {mean, variance};
}

at::Tensor SparseVariationalGpImpl::mean_weights() const {
  const at::NoGradGuard no_grad;
  return at::mv(inverse_inducing_factor().t(), variational_mean_);
}

MarginalNormal SparseVariationalGpImpl::marginals(const at::Tensor& x) const {
  MarginalNormal q = predict(x);
  q.variance = q.variance.clamp_min(0.0);
  return q;
}

at::Tensor SparseVariationalGpImpl::kl_divergence() const {
  const at::Tensor l_s = variational_cholesky();
  const double m = static_cast<double>(inducing_points());
  return 0.5 * (l_s.square().sum() + variational_mean_.square().sum() - m) -
         at::log(l_s.diagonal()).sum();
}

ElboTerms SparseVariationalGpImpl::elbo_terms(const at::Tensor& x_batch, const at::Tensor& y_batch,
                                              std::int64_t n_total,
                                              const at::Tensor& extra_noise_variance) const {
  require_matrix(x_batch, -1, kernel_->dimensions(), kSparseGpName, "x_batch");
  require_vector(y_batch, x_batch.size(0), kSparseGpName, "y_batch");
  if (n_total < x_batch.size(0))
    throw std::invalid_argument(
        std::string(kSparseGpName) + ": n_total must be >= the batch size " +
        std::to_string(x_batch.size(0)) + " (got " + std::to_string(n_total) + ")");
  const MarginalNormal q = predict(x_batch);
  const double scale = static_cast<double>(n_total) / static_cast<double>(x_batch.size(0));
  ElboTerms terms;
  terms.expected_log_likelihood =
      scale *
      likelihood_->expected_log_prob(y_batch, q.mean, q.variance, extra_noise_variance).sum();
  terms.kl = kl_divergence();
  terms.elbo = terms.expected_log_likelihood - terms.kl;
  return terms;
}

at::Tensor SparseVariationalGpImpl::elbo(const at::Tensor& x_batch, const at::Tensor& y_batch,
                                         std::int64_t n_total) const {
  return elbo_terms(x_batch, y_batch, n_total).elbo;
}

void SparseVariationalGpImpl::initialize_from(const ExactGpImpl& exact) {
  copy_parameters(*exact.mean(), *mean_, "mean");
  copy_parameters(*exact.kernel(), *kernel_, "kernel");
  copy_parameters(*exact.likelihood(), *likelihood_, "likelihood");
  const at::NoGradGuard no_grad;
  const ExactGpFactor factor = exact.factorize();
  const at::Tensor a =
      at::mm(inverse_inducing_factor(), kernel_->matrix(inducing_inputs_, exact.train_inputs()));
  const at::Tensor w = at::linalg_solve_triangular(factor.lower, a.t(), /*upper=*/false);
  at::Tensor s = at::eye(inducing_points(), a.options()) - at::mm(w.t(), w);
  s = 0.5 * (s + s.t());
  const at::Tensor l_s =
      robust_cholesky(s, "whitened covariance S of q(u) from the exact GP posterior").lower;
  set_variational_distribution(at::mv(a, factor.alpha), l_s);
}

void SparseVariationalGpImpl::set_optimal_variational_distribution(
    const at::Tensor& x, const at::Tensor& y, const at::Tensor& extra_noise_variance) {
  require_matrix(x, -1, kernel_->dimensions(), kSparseGpName, "x");
  require_vector(y, x.size(0), kSparseGpName, "y");
  const at::NoGradGuard no_grad;
  at::Tensor variance = likelihood_->variance().detach().expand({x.size(0)});
  if (extra_noise_variance.defined()) {
    require_vector(extra_noise_variance, x.size(0), kSparseGpName, "extra_noise_variance");
    variance = variance + extra_noise_variance.detach();
  }
  const at::Tensor a = at::mm(inverse_inducing_factor(), kernel_->matrix(inducing_inputs_, x));
  const at::Tensor a_scaled = a / variance.sqrt();  // A D^{-1/2}
  const at::Tensor precision =
      at::eye(inducing_points(), a.options()) + at::mm(a_scaled, a_scaled.t());
  const at::Tensor l_p = robust_cholesky(precision, "P = I + A D^-1 A^T (optimal q(u))").lower;
  const at::Tensor residual = (y - mean_->forward(x)) / variance;
  const at::Tensor m = at::cholesky_solve(at::mv(a, residual).unsqueeze(1), l_p).squeeze(1);
  at::Tensor s = at::cholesky_inverse(l_p);
  s = 0.5 * (s + s.t());
  set_variational_distribution(m, robust_cholesky(s, "S = P^-1 (optimal q(u))").lower);
}

MultivariateNormal SparseVariationalGpImpl::inducing_distribution() const {
  const at::Tensor k_zz = kernel_->matrix(inducing_inputs_, inducing_inputs_);
  const at::Tensor l_zz = robust_cholesky(k_zz, "K_zz (sparse GP inducing inputs)").lower;
  const at::Tensor mean = mean_->forward(inducing_inputs_) + at::mv(l_zz, variational_mean_);
  const at::Tensor factor = at::mm(l_zz, variational_cholesky());
  return {mean, at::mm(factor, factor.t())};
}

at::Tensor SparseVariationalGpImpl::draw_whitened(util::Rng& rng) const {
  const at::NoGradGuard no_grad;
  return variational_mean_ +
         at::mv(variational_cholesky(),
                util::normal_tensor(rng, {inducing_points()}, variational_mean_.device()));
}

at::Tensor SparseVariationalGpImpl::draw_inducing_outputs(util::Rng& rng) const {
  const at::NoGradGuard no_grad;
  const at::Tensor k_zz = kernel_->matrix(inducing_inputs_, inducing_inputs_);
  const at::Tensor l_zz = robust_cholesky(k_zz, "K_zz (sparse GP inducing inputs)").lower;
  return mean_->forward(inducing_inputs_) + at::mv(l_zz, draw_whitened(rng));
}

void SparseVariationalGpImpl::set_variational_distribution(const at::Tensor& mean,
                                                           const at::Tensor& lower) {
  const std::int64_t m = inducing_points();
  require_vector(mean, m, kSparseGpName, "variational mean");
  require_matrix(lower, m, m, kSparseGpName, "variational Cholesky factor");
  const at::NoGradGuard no_grad;
  const at::Tensor raw_diagonal =
      inverse_softplus(lower.diagonal(), "sparse variational GP: diagonal of the Cholesky factor");
  variational_mean_.copy_(mean);
  variational_cholesky_raw_.copy_(lower.tril(-1) + at::diag_embed(raw_diagonal));
}

SparseVariationalGp copy_with_shared_prior(const SparseVariationalGpImpl& gp) {
  const at::NoGradGuard no_grad;
  SparseVariationalGp copy(gp.mean(), gp.kernel(), gp.likelihood(), gp.inducing_inputs(),
                           SparseVariationalGpOptions{false});
  copy->set_variational_distribution(gp.variational_mean(), gp.variational_cholesky());
  for (auto& own : copy->named_parameters(/*recurse=*/false)) own.value().requires_grad_(false);
  return copy;
}

SparseVariationalGp sparse_gp_from_exact(const ExactGpImpl& exact, const at::Tensor& inputs,
                                         const KMeansOptions& inducing,
                                         const SparseVariationalGpOptions& options,
                                         const at::Tensor& cluster_scale) {
  const std::int64_t dimensions = exact.kernel()->dimensions();
  require_matrix(inputs, -1, dimensions, kSparseGpName, "inputs to cluster");
  const bool scaled = cluster_scale.defined();
  if (scaled && !(cluster_scale.dim() == 1 && cluster_scale.size(0) == dimensions &&
                  (cluster_scale > 0).all().item<bool>()))
    throw std::invalid_argument(std::string(kSparseGpName) + ": cluster_scale must be [" +
                                std::to_string(dimensions) + "] and positive");
  const at::Tensor z =
      inputs.size(0) <= inducing.clusters
          ? inputs.detach()
          : (scaled ? kmeans(inputs.detach() / cluster_scale, inducing) * cluster_scale
                    : kmeans(inputs, inducing));
  SparseVariationalGp sparse(exact.mean(), exact.kernel(), exact.likelihood(), z, options);
  sparse->initialize_from(exact);
  return sparse;
}

}  // namespace bhpm::gp
