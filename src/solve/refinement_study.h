#pragma once
/// The paper's refinement study (section 3, "Convergence of solution samples due to
/// operator sample refinement", Fig. 3): a synthetic GP over operators f(u, u_x, u_xx) with
/// prior mean 0.1 u_xx and kernel 0.1^2 exp(-|v - v'|^2), conditioned on f(0, 0, 0) = 0, so
/// that its mean is the heat equation u_t = 0.1 u_xx; u0 = sin x on [-pi, pi] x [0, 10],
/// periodic. Each sample runs Algorithm 1 to delta_c = 1e-2, then continues to 1e-3, ...,
/// 1e-6 (n_c,new = 8 per round); the table is the relative RMSE between the solutions at
/// successive tolerances on a uniform 128 x 128 grid of Omega_st. The IBVPs are solved by
/// the spectral solver (the paper used PINNs; the comparison between tolerances is what
/// the study measures, and a spectral solve keeps solver error out of it).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solve/operator_refinement.h"

namespace bhpm::solve {

struct RefinementStudyOptions {
  std::vector<double> tolerances = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6};  ///< decreasing, > 0
  std::int64_t samples = 4;        ///< operator samples (lines of Fig. 3b)
  std::int64_t grid_points = 128;  ///< n in x and T in t of the output grid (even, >= 4)
  double t_end = 10.0;
  double dt = 1e-2;  ///< spectral time step (fixed: lowered to divide the output step;
                     ///< adaptive: the first step tried)
  /// > 0: adaptive steps to this relative local error per step (pde::SolveOptions::tolerance),
  /// so the solver's error stays below the differences between tolerances delta_c that the
  /// study measures; 0: fixed steps of dt.
  double solver_tolerance = 0.0;
  RefinementOptions refinement;  ///< tolerance is overwritten per stage
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const RefinementStudyOptions& options);

/// The study's operator prior: GP(0.1 u_xx, 0.1^2 exp(-|v - v'|^2)) conditioned on
/// f(0, 0, 0) = 0, parameters frozen.
gp::ConditionedGp heat_operator_prior();

struct RefinementStudy {
  std::vector<double> tolerances;  ///< [R]
  at::Tensor x, t;                 ///< [n], [T]
  at::Tensor solutions;            ///< [R, S, T, n]: the solution when stage r stopped
  at::Tensor relative_rmse;        ///< [R, S]: |u_r - u_{r-1}| / |u_r|; NaN for r = 0
  at::Tensor conditioning_points;  ///< [R, S] int64: n_c when stage r stopped
  at::Tensor expected_variance;    ///< [R, S]: the last L_c of stage r
  at::Tensor converged;            ///< [R, S] bool
  at::Tensor steps;                ///< [R] int64: time steps of stage r's solves (all its rounds)
  at::Tensor rejected_steps;       ///< [R] int64: of those, rejected (adaptive steps only)
  std::vector<at::Tensor> conditioning_inputs;  ///< per sample: final V_c [n_c, 3] (grows by stage)
};

/// Runs the study; `progress` gets one line per stage and sample.
RefinementStudy run_refinement_study(const RefinementStudyOptions& options,
                                     const std::function<void(const std::string&)>& progress = {});

/// The study as a text table: one row per tolerance, the relative RMSE of every sample
/// and its n_c.
std::string refinement_table(const RefinementStudy& study);

}  // namespace bhpm::solve
