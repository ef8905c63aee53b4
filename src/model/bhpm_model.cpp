#include "model/bhpm_model.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gp/linear_mean.h"
#include "model/root_data.h"
#include "nn/taylor_forward.h"
#include "pde/nonlinear_term.h"

namespace bhpm::model {

BhpmModelImpl::BhpmModelImpl(LeafModel leaves, gp::SparseVariationalGp root, int order)
    : leaves_(register_module("leaves", std::move(leaves))),
      root_(register_module("root", std::move(root))),
      order_(order) {
  if (root_->kernel()->dimensions() != order + 1)
    throw std::invalid_argument("BHPM model: the root takes " +
                                std::to_string(root_->kernel()->dimensions()) +
                                " inputs, order K = " + std::to_string(order) + " gives " +
                                std::to_string(order + 1));
}

JointObjective BhpmModelImpl::objective(const LeafData& batch, std::int64_t points_per_leaf) const {
  const nn::LeafDerivatives pass =
      nn::taylor_forward(leaves_->network(), batch.x, batch.t, batch.boxes, order_);
  JointObjective result;
  result.leaf_nll = leaves_->negative_log_likelihood(pass.u_x_derivatives[0], batch.u);
  const RootData root = root_data(pass);
  const std::int64_t total = batch.leaves() * points_per_leaf;
  result.elbo = root_->elbo_terms(root.inputs, root.targets, total);
  const double n_st = static_cast<double>(points_per_leaf);
  result.loss = (n_st * result.leaf_nll.sum() - result.elbo.elbo) / static_cast<double>(total);
  return result;
}

std::string describe_linear_mean(const gp::Mean& mean) {
  const auto& linear = dynamic_cast<const gp::LinearMeanImpl&>(mean);
  const at::Tensor w = linear.weight().detach();
  std::string text = "u_t ~";
  char term[64];
  for (std::int64_t m = 0; m < w.size(0); ++m) {
    std::snprintf(term, sizeof term, " %+.4g %s", w[m].item<double>(),
                  pde::derivative_name(static_cast<int>(m)).c_str());
    text += term;
  }
  std::snprintf(term, sizeof term, " %+.4g", linear.bias().item<double>());
  return text + term;
}

void append_root_terms(const gp::Mean& mean, const gp::GaussianLikelihoodImpl& likelihood,
                       ProgressTerms& terms) {
  terms.emplace_back("sigma_f", std::sqrt(likelihood.variance().item<double>()));
  const auto* linear = dynamic_cast<const gp::LinearMeanImpl*>(&mean);
  if (linear == nullptr) return;
  const at::Tensor w = linear->weight().detach();
  for (std::int64_t m = 0; m < w.size(0); ++m)
    terms.emplace_back("w[" + pde::derivative_name(static_cast<int>(m)) + "]", w[m].item<double>());
  terms.emplace_back("b", linear->bias().item<double>());
}

}  // namespace bhpm::model
