#pragma once
/// What each training experiment's own rows say of the root's posterior fitted without
/// them (docs/numerics.md, "Calibration from measurements"): for experiment e, the root's
/// q(u) is set to the ELBO's closed-form maximiser over the other experiments' rows
/// (BhpmModelImpl::set_optimal_root_posterior with leaf e left out), and its marginal at
/// e's leaf rows (v_p, u_t,p) gives
///   r_p = u_t,p - mean_{-e}(v_p),  s_p^2 = var_{-e}(f(v_p)),
///   n_p = sigma_f^2 + a_p^T Cov(z_p) a_p  (the noisy-input term when the model has it),
/// the residuals of a posterior at rows it did not see, as a new initial condition's
/// trajectory would meet it. The leaves and the hyperparameters stay as trained on all
/// experiments (an approximate leave-one-out, as the trajectory calibration's).

#include <vector>

#include "gp/variance_inflation.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"

namespace bhpm::model {

/// One gp::ScoredResiduals [P] per leaf of `data` (L >= 2 leaves, P points each, on the
/// model's device), in leaf order; the root's q(u) is restored afterwards. Throws
/// std::invalid_argument for fewer than 2 leaves (nothing would be left to fit) and as
/// set_optimal_root_posterior.
std::vector<gp::ScoredResiduals> left_out_residuals(BhpmModelImpl& model, const LeafData& data);

}  // namespace bhpm::model
