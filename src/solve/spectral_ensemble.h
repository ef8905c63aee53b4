#pragma once
/// The spectral IBVP solver for operator samples (docs/predictions.md, "Predictions"): every
/// sample f_s is integrated from the same u0 on a periodic grid by the data generator's
/// ETDRK4 (pde/periodic_solve.h), all S members in one batch, with a given linear part
/// (the predictor: the posterior mean's Jacobian at u0) or the samples' average Jacobian
/// at u0 as the exactly treated part (solve/sampled_operator.h). A member
/// that blows up is dropped and reported (EnsembleSolution::failures), the others go on.

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

#include "gp/function_samples.h"
#include "pde/periodic_grid.h"
#include "pde/periodic_solve.h"
#include "solve/ensemble_solution.h"

namespace bhpm::solve {

/// v [P, D] = (u, u_x, .., d^K u/dx^K) of u [..., n] at every entry, by spectral
/// differentiation on `grid`, K = dimensions - 1 (rows in u's flattened order), on the
/// grid's device.
at::Tensor spectral_root_inputs(const pde::PeriodicGrid& grid, const at::Tensor& u,
                                std::int64_t dimensions);

/// The dealiasing used for operator samples, given the configured one (pde/dealiasing.h):
/// "pad" becomes "truncate". A sample of f is no polynomial, so the 3/2 rule is not exact
/// for it, and it would evaluate every sample on 1.5 times the points; the others are kept.
std::string sample_dealiasing(const std::string& configured);

/// c = the average Jacobian of `samples` at u0's inputs (solve/sampled_operator.h): the
/// linear part L = sum_m c_m d^m/dx^m that a spectral solve treats exactly. u0 [n].
std::vector<double> linear_part(const pde::PeriodicGrid& grid, const gp::FunctionSamples& samples,
                                const at::Tensor& u0);

/// Solves u_t = f_s(u, .., d^K u/dx^K), u(x, 0) = u0 [n], periodic, for every sample s to
/// options.t_end with sample_dealiasing(options.stepper.dealias), fixed steps of
/// options.stepper.dt or, with options.tolerance > 0, adaptive steps of each member's own
/// (a member whose step collapses is dropped as blown up, pde/member_steps.h);
/// options.drop_diverged is forced on; with conserve_mean, u_t = f_s - <f_s>_x
/// (solve/sampled_operator.h). `linear` is the c of the linear part treated exactly (D
/// values; empty: linear_part of these samples). With a given c every member's solution is
/// the same whichever members share its batch. Returns u [S, T, n].
/// The solve runs on grid.device(); the returned tensors are on the CPU.
/// Throws std::invalid_argument for a u0 of another size or a c of another length.
EnsembleSolution solve_spectral_ensemble(const pde::PeriodicGrid& grid,
                                         std::shared_ptr<const gp::FunctionSamples> samples,
                                         const at::Tensor& u0, pde::SolveOptions options,
                                         bool conserve_mean = false,
                                         std::vector<double> linear = {});

}  // namespace bhpm::solve
