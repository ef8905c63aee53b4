#pragma once
/// What each training experiment's own rows say of the root's posterior fitted without
/// them (docs/calibration.md, "Calibration from measurements"): for experiment e, the root's
/// q(u) is set to the ELBO's closed-form maximiser over the other experiments' rows
/// (BhpmModelImpl::set_optimal_root_posterior with leaf e left out), and at e's leaf rows
/// (v_p, u_t,p)
///   r_p = u_t,p - m_{-e}(v_p),  g_sp = f_s(v_p) - m_{-e}(v_p),
/// m_{-e} that posterior's mean and f_s, s = 1..S, its pathwise samples
/// (gp/pathwise_samples.h): the error of a posterior at rows it did not see, as a new
/// initial condition's trajectory meets it, beside the spread its samples put there; h_sp,
/// the part of g_sp that q(u)'s spread makes (the same draws with q(u)'s covariance
/// scaled by 4, gp/inflated_posterior.h, deviate by g_sp + h_sp); and
///   r^in_p = u_t,p - m(v_p),
/// m the trained posterior's mean (all experiments in), which has seen the rows: what is
/// left is the leaf's own error in (v_p, u_t,p) more than the operator's. The
/// leaves and the hyperparameters stay as trained on all experiments (an approximate
/// leave-one-out, as the trajectory calibration's).

#include <cstdint>
#include <vector>

#include "gp/pathwise_samples.h"
#include "gp/posterior_residuals.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"

namespace bhpm::model {

/// One gp::PosteriorResiduals (in_sample and inducing_deviations set) per leaf of `data` (L >= 2
/// leaves, P points each), in leaf order, with `samples` pathwise samples of `features`
/// (gp::PathwiseOptions, seed `seed`: the same draws for every experiment); the root's q(u) is
/// restored afterwards. Throws std::invalid_argument for fewer than 2 leaves (nothing would be left
/// to fit), for samples < 1, and as set_optimal_root_posterior and gp::PathwiseSamples.
std::vector<gp::PosteriorResiduals> left_out_residuals(BhpmModelImpl& model, const LeafData& data,
                                                       std::int64_t samples,
                                                       const gp::PathwiseOptions& options);

}  // namespace bhpm::model
