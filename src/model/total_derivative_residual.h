#pragma once
/// Whether an operator f(u, u_x, ..., d^K u) conserves the spatial mean of every periodic
/// solution, read on windows that are not a whole period (docs/calibration.md, "Conserved
/// mean"). On a window [a, b] the mean of u moves by the flux through its ends, so the
/// leaves' mean drift (model/mean_drift.h) cannot tell; the operator itself can. <f(v)>_x is
/// the same on every periodic state exactly when f is a total derivative D_x G (up to a
/// constant), i.e. when its Euler operator
///   E[f] = sum_k (-D_x)^k df/dv_k,   v_k = d^k u/dx^k,
/// vanishes along every state. Its weak form needs no derivative of the data: for test
/// functions phi that vanish with their first K derivatives at the window's ends,
///   J(phi) = int E[f] phi dx = sum_k A_k,   A_k = int df/dv_k(v(x)) phi^(k)(x) dx.
/// Burgers' f = nu u_xx - u u_x gives A_0 = -int u_x phi, A_1 = -int u phi' = -A_0, A_2 = 0:
/// J = 0 on every state; a damping -gamma u adds -gamma int phi, uncancelled. The statistic
/// is the uncancelled fraction over every test function, time and window,
///   rho = sqrt(sum J^2 / sum_k sum A_k^2)    (0 for a total derivative, 1 when no term
///                                             cancels another),
/// with phi_j(x) = (1 - s^2)^(K + 2), s = (x - c_j) / w: kTestFunctions bumps per window
/// whose supports tile it (w = (b - a) / (kTestFunctions + 1)). A constant source f = c has
/// E[f] = 0 and is not seen.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "nn/sine_mlp.h"

namespace bhpm::gp {
class SparseVariationalGpImpl;
}

namespace bhpm::model {

class LeafModelImpl;

/// Bumps per window.
constexpr std::int64_t kTestFunctions = 4;

/// Below this rho the operator counts as a total derivative: trained Burgers roots gave
/// 0.023-0.025, the exact Burgers operator damped by -gamma u about 6 gamma on the
/// benchmark's windows (docs/calibration.md, "On windows narrower than the period").
constexpr double kTotalDerivativeTolerance = 0.05;

struct TotalDerivativeResidual {
  double relative = 0;              ///< rho
  std::int64_t test_functions = 0;  ///< bumps x times x windows
  bool conserved() const { return relative < kTotalDerivativeTolerance; }
};

/// d^k/ds^k (1 - s^2)^p at s [n] for k = 0..order, zero outside |s| < 1: [order + 1, n].
at::Tensor bump_derivatives(const at::Tensor& s, std::int64_t power, std::int64_t order);

/// rho of gradients df/dv [L, T, X, K + 1] sampled on each window's grid: X points over
/// [x_min, x_max] (both ends) at T times. Throws std::invalid_argument for other shapes,
/// X < 8 or a box count other than L.
TotalDerivativeResidual total_derivative_residual(const at::Tensor& gradient,
                                                  const std::vector<nn::DomainBox>& boxes);

/// rho of the root's posterior mean along the leaves on their boxes (x_points x t_points
/// each, the leaves' v of order K = root inputs - 1).
TotalDerivativeResidual root_total_derivative_residual(const LeafModelImpl& leaves,
                                                       const std::vector<nn::DomainBox>& boxes,
                                                       const gp::SparseVariationalGpImpl& root,
                                                       std::int64_t x_points = 256,
                                                       std::int64_t t_points = 21);

}  // namespace bhpm::model
