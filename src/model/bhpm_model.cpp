#include "model/bhpm_model.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>

#include "model/leaf_laplace.h"
#include "model/root_data.h"
#include "nn/taylor_forward.h"
#include "pde/nonlinear_term.h"

namespace bhpm::model {

BhpmModelImpl::BhpmModelImpl(LeafModel leaves, gp::SparseVariationalGp root, int order,
                             bool leaf_input_noise)
    : leaves_(register_module("leaves", std::move(leaves))),
      root_(register_module("root", std::move(root))),
      order_(order),
      leaf_input_noise_(leaf_input_noise) {
  if (root_->kernel()->dimensions() != order + 1)
    throw std::invalid_argument(
        "BHPM model: the root takes " + std::to_string(root_->kernel()->dimensions()) +
        " inputs, order K = " + std::to_string(order) + " gives " + std::to_string(order + 1));
}

JointObjective BhpmModelImpl::objective(const LeafData& batch, std::int64_t points_per_leaf) const {
  const at::Tensor hidden =
      nn::taylor_hidden_streams(leaves_->network(), batch.x, batch.t, batch.boxes, order_);
  const nn::LeafDerivatives pass = nn::output_derivatives(leaves_->network(), hidden);
  JointObjective result;
  result.leaf_nll = leaves_->negative_log_likelihood(pass.u_x_derivatives[0], batch.u);
  const RootData root = root_data(pass);
  const std::int64_t total = batch.leaves() * points_per_leaf;
  const at::Tensor input_noise =
      leaf_input_noise_ ? leaf_input_noise_variance(*leaves_, *root_, hidden, root, points_per_leaf)
                        : at::Tensor();
  result.elbo = root_->elbo_terms(root.inputs, root.targets, total, input_noise);
  const double n_st = static_cast<double>(points_per_leaf);
  result.loss = (n_st * result.leaf_nll.sum() - result.elbo.elbo) / static_cast<double>(total);
  return result;
}

void BhpmModelImpl::set_optimal_root_posterior(const LeafData& data) {
  at::Tensor hidden;
  RootData rows;
  {
    const at::NoGradGuard no_grad;
    hidden = nn::taylor_hidden_streams(leaves_->network(), data.x, data.t, data.boxes, order_);
    rows = root_data(nn::output_derivatives(leaves_->network(), hidden));
  }
  const at::Tensor input_noise =
      leaf_input_noise_ ? leaf_input_noise_variance(*leaves_, *root_, hidden, rows, data.points())
                        : at::Tensor();
  root_->set_optimal_variational_distribution(rows.inputs, rows.targets, input_noise);
}

std::vector<std::string> root_variable_names(std::int64_t dimensions) {
  std::vector<std::string> names;
  for (std::int64_t m = 0; m < dimensions; ++m)
    names.push_back(pde::derivative_name(static_cast<int>(m)));
  return names;
}

std::string describe_root_mean(const gp::Mean& mean) {
  return "u_t ~" + mean.formula(root_variable_names(mean.dimensions()));
}

void append_root_terms(const gp::Mean& mean, const gp::GaussianLikelihoodImpl& likelihood,
                       ProgressTerms& terms) {
  terms.emplace_back("sigma_f", std::sqrt(likelihood.variance().item<double>()));
  const std::vector<std::string> variables = root_variable_names(mean.dimensions());
  for (const gp::Hyperparameter& parameter : mean.hyperparameters()) {
    if (parameter.value.dim() == 0) {
      terms.emplace_back(parameter.symbol, parameter.value.item<double>());
      continue;
    }
    for (std::int64_t m = 0; m < parameter.value.size(0); ++m)
      terms.emplace_back(parameter.symbol + "[" + variables.at(m) + "]",
                         parameter.value[m].item<double>());
  }
}

}  // namespace bhpm::model
