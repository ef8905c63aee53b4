#pragma once
/// Operator samples as the explicit part of a spectral time step (paper section 2.3;
/// docs/predictions.md, "Predictions"): u_t = f_s(u, u_x, .., d^K u/dx^K) is split as
///   u_t = L u + N_s(v),  L = sum_m c_m d^m/dx^m,  N_s(v) = f_s(v) - sum_m c_m v_m,
/// with L treated exactly by ETDRK4 and N_s explicitly. Any c gives the same equation; c
/// decides the stiffness left in N_s. The linear mean w . v + b of the root is such an L,
/// but its weights are a least-squares projection that need not carry the stiff part
/// (docs/predictions.md, "Predictions": a learned Burgers mean had +0.018 u_xx against the
/// true 0.1 u_xx, a KdV mean -0.18 u_xxx against -1); the kernel part carries the rest, and
/// an explicit 0.08 u_xx or 0.8 u_xxx forces tiny steps. So c is an average Jacobian
/// c_m = mean_{s,p} df_s/dv_m at the initial condition's inputs (of the samples, or of the
/// posterior mean alone: solve/predictor.h): for a linear
/// operator it is the operator itself, for Burgers' -u u_x + 0.1 u_xx it is (mean(-u_x),
/// mean(-u), 0.1) - the whole diffusion - and for the root's mean alone it is w.

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

#include "gp/function_samples.h"
#include "pde/nonlinear_term.h"

namespace bhpm::solve {

/// N_s(v) = f_s(v) - sum_m c_m v_m for a batch of S members (member s uses sample s).
/// With conserve_mean, N_s(v) = f_s(v) - <f_s(v)>_x - sum_m c_m v_m, <.>_x the mean over
/// the periodic grid: since <d^m u/dx^m>_x = 0 for m >= 1, the whole right-hand side
/// L u + N_s then has zero spatial mean, so every member conserves <u>_x exactly - the
/// projection of f_s onto mean-conserving dynamics (docs/calibration.md, "Conserved mean").
class SampledOperatorTerm final : public pde::NonlinearTerm {
 public:
  /// linear = c [D]; throws std::invalid_argument for a null sample set or c of another length.
  SampledOperatorTerm(std::shared_ptr<const gp::FunctionSamples> samples,
                      std::vector<double> linear, bool conserve_mean = false);
  int max_derivative() const override;
  /// derivatives [K+1, S, n] -> N [S, n].
  at::Tensor evaluate(const at::Tensor& derivatives) const override;
  /// As evaluate, with the samples at time t (0-dim, or [S, 1] per member;
  /// FunctionSamples::evaluate_at).
  at::Tensor evaluate_at(const at::Tensor& derivatives, const at::Tensor& t) const override;
  /// The same term over samples members [k] (gp::select_members).
  std::shared_ptr<const pde::NonlinearTerm> select_members(
      const at::Tensor& members) const override;
  /// Where the samples evaluate plain values (time-independent ones such as polynomials).
  bool evaluates_values() const override { return samples_->evaluates_values(); }
  /// N_s of member s = sample s, as evaluate on plain arrays.
  void evaluate_values(std::int64_t member, const double* derivatives, std::int64_t points,
                       double t, double* out) const override;
  std::string describe() const override;

 private:
  std::shared_ptr<const gp::FunctionSamples> samples_;
  std::vector<double> linear_;
  bool conserve_mean_;
};

/// c_m = mean over s and p of df_s/dv_m at v [S, P, D] (autograd; non-finite entries are
/// left out), D values.
std::vector<double> average_jacobian(const gp::FunctionSamples& samples, const at::Tensor& v);

/// c_s = mean over p of df_s/dv at v [S, P, D] per member (non-finite entries left out;
/// NaN for a member without a finite one): [S, D].
at::Tensor member_jacobians(const gp::FunctionSamples& samples, const at::Tensor& v);

}  // namespace bhpm::solve
