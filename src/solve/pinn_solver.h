#pragma once
/// Physics-informed neural network (PINN) solves of one initial-boundary value problem,
/// periodic or on an interval with boundary conditions, under S operator samples (paper
/// appendix C, "Physics-informed neural networks"; Raissi et al. 2019).
///
/// Member s (one sample f_s of the learned operator, D = K + 1 inputs) is a sine MLP
/// u_s(x, t; theta_s) with the leaves' architecture (nn/sine_mlp.h, appendix B), on the box
/// [x_min, x_max] x [0, t_end] of the problem. All S networks are one nn::SineMlp with
/// L = S leaves, trained at once: their parameters are independent slices, so the summed
/// loss trains each member on its own loss. Member s minimises, at every iteration, on
/// freshly drawn points,
///
///   L_s = 1/n_c sum_i (u_t - f_s(u, u_x, ..., d^K u/dx^K))^2 at (x_i, t_i)   (residual)
///       + sum_k 1/n_b sum_j b_k(u)(t_j)^2                                       (boundary)
///       + 1/n_0 sum_l (u(x_l, 0) - u0(x_l))^2                                   (initial)
///
/// This is the loss of appendix C (Eq. eqn:pinn) plus the initial condition, which the
/// paper's equation leaves implicit. The boundary operators b_k are, on a periodic domain,
/// d^k u(x_min, t) - d^k u(x_max, t), k < K; on an interval, one per condition
/// sum_m w_m d^m u = g(t) at its end (pde/boundary_conditions.h), b = sum_m w_m d^m u(end, t)
/// - g(t). Points: (x_i, t_i) uniform in [x_min, x_max] x [0, t_end]; t_j uniform in
/// [0, t_end]; x_l random grid points on a periodic (uniform) grid, uniform in [x_min, x_max]
/// on an interval with u0 interpolated from the Chebyshev points (so the ends, where the
/// points cluster, do not outweigh the middle).
/// u, its x-derivatives and u_t come from one Taylor-mode pass (nn/taylor_forward.h) over
/// the points of all members. Adam, with the rate cosine-annealed from learning_rate to
/// final_learning_rate (util/learning_rate_schedule.h). Everything is double on the CPU.
///
/// Cost: bench/pinn_step times one iteration (docs/predictions.md, "Speed of predictions").
///
/// Divergence: a member whose loss, gradient or output is not finite is marked diverged
/// (EnsembleSolution::diverged, with a message naming the iteration), its output rows are
/// NaN, and from then on its loss is left out of the sum and its gradient slices are zeroed,
/// so it never touches the other members. Every other member's numbers are those of a run
/// without it: member s's initial weights and points depend on (seed, s) alone.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "gp/function_samples.h"
#include "nn/sine_mlp.h"
#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"
#include "pde/periodic_grid.h"
#include "solve/ensemble_solution.h"

namespace bhpm::solve {

/// The paper's settings are the defaults (appendix C: batches of 4096 and 256, Adam
/// 1e-3 -> 1e-4 cosine annealed; 5e4 iterations for Burgers, 3e5 for KdV).
struct PinnOptions {
  /// Architecture of each member (the leaves' defaults, 6 x 64 sine MLP). The solver sets
  /// `leaves` to S and `seed` to derive_seed(seed, "pinn_network", 0); both are ignored here.
  nn::SineMlpOptions network;
  std::int64_t iterations = 50000;         ///< Adam steps (>= 1); paper: 5e4 Burgers, 3e5 KdV
  std::int64_t collocation_points = 4096;  ///< n_c per member per iteration (>= 1)
  std::int64_t boundary_points = 256;      ///< n_b boundary times per member per iteration (>= 1)
  std::int64_t initial_points = 256;       ///< n_0 grid points for u(x, 0) = u0 (>= 1)
  double learning_rate = 1e-3;             ///< at the first step (> 0, finite)
  double final_learning_rate = 1e-4;       ///< at the last step (> 0, finite)
  /// Weights of member s: derive_seed(derive_seed(seed, "pinn_network", 0), "sine_mlp", s);
  /// its points at iteration i: derive_seed(derive_seed(seed, "pinn_member", s),
  /// "pinn_points", i).
  std::uint64_t seed = 0;
};

/// Throws util::OptionError naming the field, its value and the rule it breaks (the
/// network's fields as nn::validate names them, prefixed "network."; `leaves` and `seed`
/// excepted).
void validate(const PinnOptions& options);

/// Where the members live: the interval, the points of u0 and of the output, and what
/// holds at the ends. Made by periodic() or bounded().
struct PinnDomain {
  double x_min = -1.0, x_max = 1.0;
  at::Tensor x;  ///< [n] points in [x_min, x_max]: where u0 is given and u is output
  /// Set on an interval: its Chebyshev grid (x are its points); unset: periodic.
  std::optional<pde::ChebyshevGrid> interval;
  /// On an interval, the conditions at x_min and x_max (each of derivative order below K).
  pde::BoundaryConditions conditions;

  /// [x_min, x_max) on the grid's n uniform points.
  static PinnDomain periodic(const pde::PeriodicGrid& grid);
  /// [a, b] on its n + 1 Chebyshev points under `conditions` (g's time 0 is u0's).
  static PinnDomain bounded(const pde::ChebyshevGrid& grid, pde::BoundaryConditions conditions);
};

/// One IBVP: u(x, 0) = u0 on the domain's points, solution wanted at times t.
struct PinnProblem {
  PinnDomain domain;
  at::Tensor u0;  ///< [n] initial condition on domain.x, finite
  at::Tensor t;   ///< [T] output times, T >= 2, t[0] = 0, strictly increasing; t_end = t[T-1]
};

/// The loss of every member at one iteration, detached, [S] each: total = residual +
/// boundary + initial. Entries of members already diverged are meaningless (often NaN).
struct PinnLoss {
  at::Tensor total, residual, boundary, initial;
};

/// Called after iterations report_every, 2 report_every, ... and after the last one, with
/// the number of iterations done and the losses of that iteration.
using PinnProgress = std::function<void(std::int64_t iteration, const PinnLoss& loss)>;

/// Trains one PINN per sample of `samples` (S = count(), K = dimensions() - 1) and
/// evaluates member s at every (t, x) of problem.t x problem.domain.x: u [S, T, n].
/// Throws std::invalid_argument for bad options, report_every < 1, K outside
/// [1, nn::kMaxOrder], S < 1, u0 not [n] or not finite, bad times, a condition of order
/// K or more, or samples whose evaluate() does not return [S, P]. Members that diverge are
/// reported, not thrown.
EnsembleSolution solve_pinn_ensemble(const PinnProblem& problem, const gp::FunctionSamples& samples,
                                     const PinnOptions& options, const PinnProgress& progress = {},
                                     std::int64_t report_every = 100);

}  // namespace bhpm::solve
