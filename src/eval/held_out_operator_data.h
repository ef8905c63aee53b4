#pragma once
/// Test data for the learned operator (paper section 3, "Quantifying the accuracy of the
/// learned physics"): on held-out experiments, the root's inputs and its exact target.
///
/// For every experiment e, output time t_i and grid point x_j of the stored clean solution
/// u [E, T, n], the inputs are u as stored and its exact spatial derivatives by spectral
/// differentiation on the periodic grid (on a bounded domain's Chebyshev points, set.conditions
/// non-empty: by Chebyshev differentiation matrices),
///   v = (u, u_x, ..., d^K u/dx^K)(x_j, t_i),   K = order,
/// and the target is the true operator applied to them,
///   u_t = sum_m c_m d^m u/dx^m + N(u, u_x, ..., d^K' u/dx^K'),
/// with K' = max(order, equation.order()), so the target is exact even when the equation
/// reads derivatives the model does not see.

#include <ATen/core/Tensor.h>

#include <cstdint>

#include "pde/equation.h"
#include "pde/experiment_set.h"

namespace bhpm::eval {

struct OperatorTestData {
  at::Tensor inputs;      ///< [P, K+1] double: u, u_x, ..., d^K u/dx^K
  at::Tensor target;      ///< [P] double: u_t = F[u] from the true operator
  at::Tensor experiment;  ///< [P] int64: experiment index e in the set
  at::Tensor x;           ///< [P] double: grid point of each row
  at::Tensor t;           ///< [P] double: output time of each row
};

/// Builds the test data of `set` (clean grids set.u [E, T, n], grid set.x [n] uniform with
/// period n (x_1 - x_0), or a bounded domain's Chebyshev points) for inputs up to derivative
/// `order` in [0, 6].
///
/// With max_points = 0 or >= E T n every point is kept, in (experiment, time, x) order.
/// Otherwise max_points rows are kept, evenly spread (eval/point_subset.h).
///
/// Throws std::invalid_argument naming the set for an order outside [0, 6], a negative
/// max_points, an empty or malformed set (shapes, non-uniform or too short grid), and naming
/// the experiment when its solution or its target is not finite.
OperatorTestData held_out_operator_data(const pde::ExperimentSet& set,
                                        const pde::Equation& equation, int order,
                                        std::int64_t max_points = 0);

}  // namespace bhpm::eval
