#pragma once
/// A GP posterior scored at rows it did not see: the residuals of its mean there and the
/// deviations of its samples from that mean (solve/operator_calibration.h compares the two),
/// beside the residuals of the posterior that did see them.

#include <ATen/core/Tensor.h>

namespace bhpm::gp {

/// One experiment's rows on its window [x_min, x_max] x [t_min, t_max]: P rows, S samples.
struct PosteriorResiduals {
  at::Tensor residual;    ///< [P] r_p = y_p - m(v_p)
  at::Tensor deviations;  ///< [S, P] g_sp = f_s(v_p) - m(v_p), f_s samples of q(f)
  at::Tensor x, t;        ///< [P] where row p was measured
  double x_min = 0, x_max = 0, t_min = 0, t_max = 0;
  /// [P] y_p - m_all(v_p), m_all the posterior fitted with these rows in (undefined: not
  /// known): what of r_p no posterior of f explains, the error of the targets themselves.
  at::Tensor in_sample;
  /// [S, P] h_sp, the part of g_sp that q(u)'s spread makes: the samples of the posterior
  /// with q(u)'s covariance scaled by kappa (gp/inflated_posterior.h) deviate by
  /// g_sp - h_sp + sqrt(kappa) h_sp (undefined: all of g_sp scales).
  at::Tensor inducing_deviations;
};

}  // namespace bhpm::gp
