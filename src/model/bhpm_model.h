#pragma once
/// The BHPM model (paper section 2.2, Fig. 1a): N leaves u_i(x, t) and one root GP
/// u_t = f(v), v = (u, u_x, .., d^K u/dx^K), trained jointly on the evidence lower bound
/// of Eq. 4:
///   log p({u_hat^(i), du_hat^(i)/dt}) >= sum_i L_i^u + E_q[log p(u_t | f)] - KL(q(u) || p(u)),
/// with L_i^u the leaves' log-likelihoods (Eq. 2) and the sparse root of Hensman et al.

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gp/sparse_variational_gp.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/training_progress.h"

namespace bhpm::model {

/// The negative joint ELBO per measurement and its parts, on one minibatch.
struct JointObjective {
  at::Tensor loss;      ///< -(sum_i L_i^u + ELBO) / (L n_st) [], what Adam minimises
  at::Tensor leaf_nll;  ///< per-point negative log-likelihood of each leaf [L]
  gp::ElboTerms elbo;   ///< the root's terms, scaled to all L n_st root points
};

class BhpmModelImpl : public torch::nn::Module {
 public:
  /// Registers "leaves" and "root"; the root's input dimension must be order + 1. With
  /// leaf_input_noise the ELBO adds to each root point's likelihood variance the
  /// first-order noisy-input term of the leaves' last-layer Laplace approximation
  /// (model/leaf_laplace.h, leaf_input_noise_variance; root.input_noise = "laplace").
  BhpmModelImpl(LeafModel leaves, gp::SparseVariationalGp root, int order,
                bool leaf_input_noise = false);

  /// The objective on `batch` (B points per leaf) of a data set of `points_per_leaf`
  /// = n_st points per leaf: one Taylor pass gives the leaves' u (for L_i^u, scaled by
  /// n_st / B) and the root's inputs and targets (for the ELBO with n_total = L n_st).
  JointObjective objective(const LeafData& batch, std::int64_t points_per_leaf) const;

  /// Sets the root's q(u) to the maximiser of the ELBO over all root rows of `data` (every
  /// leaf's v and u_t at its measurements, with the noisy-input term when the model has
  /// one) at the current leaves and hyperparameters (gp::SparseVariationalGpImpl::
  /// set_optimal_variational_distribution): the end of phase 3. The rows of the leaves in
  /// `left_out_leaves` (indices in [0, L)) are left out: the posterior a prediction of
  /// those experiments would have without their data, at the hyperparameters trained on
  /// all (the calibration's leave-one-out and leave-two-out posteriors,
  /// solve/discrepancy_calibration.h). Throws std::invalid_argument for an index outside
  /// [0, L) or when no leaf's rows are left.
  void set_optimal_root_posterior(const LeafData& data,
                                  const std::vector<std::int64_t>& left_out_leaves = {});

  LeafModelImpl& leaves() { return *leaves_; }
  const LeafModelImpl& leaves() const { return *leaves_; }
  gp::SparseVariationalGpImpl& root() { return *root_; }
  const gp::SparseVariationalGpImpl& root() const { return *root_; }
  int order() const { return order_; }

 private:
  LeafModel leaves_;
  gp::SparseVariationalGp root_;
  int order_;
  bool leaf_input_noise_;
};

TORCH_MODULE(BhpmModel);

/// The root's inputs by name: u, u_x, u_xx, ... for D = dimensions (pde::derivative_name).
std::vector<std::string> root_variable_names(std::int64_t dimensions);

/// The root's mean as text, e.g. for the linear mean
/// "u_t ~ +0.0012 u -0.21 u_x +0.018 u_xx +0.0004".
std::string describe_root_mean(const gp::Mean& mean);

/// Progress terms of a root: "sigma_f" (likelihood scale) and the mean's hyperparameters
/// by symbol ("w[u]", "w[u_x]", ... and "b" for the linear mean), so a user sees the
/// physics emerge while it trains.
void append_root_terms(const gp::Mean& mean, const gp::GaussianLikelihoodImpl& likelihood,
                       ProgressTerms& terms);

}  // namespace bhpm::model
