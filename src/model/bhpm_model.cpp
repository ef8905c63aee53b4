#include "model/bhpm_model.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>

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

namespace {

/// One Taylor pass of the leaves at `points` (B per leaf, of points_per_leaf each): their
/// derivatives, the root rows [L B] and, when the model has it, each row's noisy-input
/// variance [L B] (undefined otherwise).
struct LeafPass {
  nn::LeafDerivatives derivatives;
  RootData rows;
  at::Tensor input_noise;
};

LeafPass leaf_pass(const LeafModelImpl& leaves, const gp::SparseVariationalGpImpl& root, int order,
                   bool leaf_input_noise, const LeafData& points, std::int64_t points_per_leaf) {
  const at::Tensor hidden =
      nn::taylor_hidden_streams(leaves.network(), points.x, points.t, points.boxes, order);
  LeafPass pass{nn::output_derivatives(leaves.network(), hidden), {}, {}};
  pass.rows = root_data(pass.derivatives);
  if (leaf_input_noise)
    pass.input_noise = leaf_input_noise_variance(leaves, root, hidden, pass.rows, points_per_leaf);
  return pass;
}

}  // namespace

JointObjective BhpmModelImpl::objective(const LeafData& batch, std::int64_t points_per_leaf) const {
  const LeafPass pass =
      leaf_pass(*leaves_, *root_, order_, leaf_input_noise_, batch, points_per_leaf);
  JointObjective result;
  result.leaf_nll = leaves_->negative_log_likelihood(pass.derivatives.u_x_derivatives[0], batch.u);
  const std::int64_t total = batch.leaves() * points_per_leaf;
  result.elbo = root_->elbo_terms(pass.rows.inputs, pass.rows.targets, total, pass.input_noise);
  const double n_st = static_cast<double>(points_per_leaf);
  result.loss = (n_st * result.leaf_nll.sum() - result.elbo.elbo) / static_cast<double>(total);
  return result;
}

void BhpmModelImpl::set_optimal_root_posterior(const LeafData& data,
                                               const std::vector<std::int64_t>& left_out_leaves) {
  const at::NoGradGuard no_grad;
  const at::Tensor kept_leaf = at::ones({data.leaves()}, data.x.options().dtype(at::kBool));
  for (const std::int64_t leaf : left_out_leaves) {
    if (leaf < 0 || leaf >= data.leaves())
      throw std::invalid_argument("root posterior: cannot leave out leaf " + std::to_string(leaf) +
                                  " of " + std::to_string(data.leaves()));
    kept_leaf[leaf] = false;
  }
  if (!kept_leaf.any().item<bool>())
    throw std::invalid_argument("root posterior: cannot leave out all " +
                                std::to_string(data.leaves()) + " leaves (no rows would be left)");
  const LeafPass pass = leaf_pass(*leaves_, *root_, order_, leaf_input_noise_, data, data.points());
  if (left_out_leaves.empty()) {
    root_->set_optimal_variational_distribution(pass.rows.inputs, pass.rows.targets,
                                                pass.input_noise);
    return;
  }
  // Rows are leaf by leaf (model/root_data.h): leaf i owns rows [i P, (i + 1) P).
  const at::Tensor kept = kept_leaf.repeat_interleave(data.points()).nonzero().squeeze(1);
  root_->set_optimal_variational_distribution(
      pass.rows.inputs.index_select(0, kept), pass.rows.targets.index_select(0, kept),
      pass.input_noise.defined() ? pass.input_noise.index_select(0, kept) : at::Tensor());
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
