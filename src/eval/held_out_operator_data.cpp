#include "eval/held_out_operator_data.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "eval/point_subset.h"
#include "pde/chebyshev_grid.h"
#include "pde/periodic_grid.h"
#include "util/number_format.h"
#include "util/tensor_checks.h"

namespace bhpm::eval {

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);
const auto kIndex = at::TensorOptions().dtype(at::kLong);

bool is_double_tensor(const at::Tensor& tensor, std::int64_t dims) {
  return tensor.defined() && tensor.scalar_type() == at::kDouble && tensor.dim() == dims;
}

/// Checks the shapes of u [E, T, n], t [T] and x [n].
void check_shapes(const pde::ExperimentSet& set, const std::string& where) {
  if (!is_double_tensor(set.u, 3) || set.u.size(0) < 1 || set.u.size(1) < 1)
    throw std::invalid_argument(where +
                                ": u must be a double tensor [E, T, n] with E, T >= 1 "
                                "(got " +
                                util::describe_tensor(set.u) + ")");
  const std::int64_t times = set.u.size(1), n = set.u.size(2);
  if (!is_double_tensor(set.t, 1) || set.t.size(0) != times)
    throw std::invalid_argument(where + ": t must be a double tensor [" + std::to_string(times) +
                                "] matching u (got " + util::describe_tensor(set.t) + ")");
  if (!is_double_tensor(set.x, 1) || set.x.size(0) != n || n < 4)
    throw std::invalid_argument(where + ": x must be a double tensor [n] matching u, n >= 4 (got " +
                                util::describe_tensor(set.x) + ", u " +
                                util::describe_tensor(set.u) + ")");
}

/// x [n] must be `expected` [n] within 1e-9 of the domain's length.
void require_grid(const at::Tensor& x, const at::Tensor& expected, double length,
                  const std::string& where, const std::string& kind) {
  const double deviation = (x - expected).abs().max().item<double>();
  if (!(std::isfinite(length) && length > 0.0 && deviation <= 1e-9 * length))
    throw std::invalid_argument(where + ": x must be " + kind + " (largest deviation " +
                                util::format_significant(deviation, 6) + ")");
}

/// d^m u/dx^m [needed, R, n], m = 1..needed, of the snapshots u [R, n]: by spectral
/// differentiation on a periodic grid (n even), by Chebyshev differentiation matrices on a
/// bounded domain's points (pde/chebyshev_grid.h).
at::Tensor grid_derivatives(const pde::ExperimentSet& set, const at::Tensor& u, int needed,
                            const std::string& where) {
  const std::int64_t n = set.x.size(0);
  const double x0 = set.x[0].item<double>(), x_last = set.x[n - 1].item<double>();
  if (!set.conditions.empty()) {
    const pde::ChebyshevGrid grid(x0, x_last, n - 1);
    require_grid(set.x, grid.x(), x_last - x0, where, "the Chebyshev points of [x_0, x_last]");
    std::vector<at::Tensor> derivatives;
    for (int m = 1; m <= needed; ++m)
      derivatives.push_back(at::matmul(u, grid.differentiation_matrix(m).t()));
    return needed > 0 ? at::stack(derivatives) : u.new_empty({0, u.size(0), n});
  }
  if (n % 2 != 0)
    throw std::invalid_argument(where + ": a periodic grid needs an even n (got " +
                                std::to_string(n) + ")");
  const double dx = (x_last - x0) / static_cast<double>(n - 1);
  require_grid(set.x, x0 + dx * at::arange(n, kReal), dx * static_cast<double>(n), where,
               "a finite, increasing uniform grid");
  const pde::PeriodicGrid grid(x0, x0 + dx * static_cast<double>(n), n);
  return grid.derivatives_from_spectral(grid.to_spectral(u), needed).slice(0, 1);
}

/// values [E, ...]: throws naming the first experiment with a NaN or infinity.
void require_finite(const at::Tensor& values, const std::string& where, const std::string& name) {
  const at::Tensor bad = values.reshape({values.size(0), -1}).isfinite().logical_not().any(1);
  if (!bad.any().item<bool>()) return;
  const std::int64_t e = bad.nonzero()[0][0].item<std::int64_t>();
  throw std::invalid_argument(where + ": experiment " + std::to_string(e) + ": " + name +
                              " must be finite (got NaN or infinity)");
}

}  // namespace

OperatorTestData held_out_operator_data(const pde::ExperimentSet& set,
                                        const pde::Equation& equation, int order,
                                        std::int64_t max_points) {
  const std::string where = "held-out operator data of set '" + set.name + "'";
  if (order < 0 || order > 6)
    throw std::invalid_argument(where + ": order must be in [0, 6] (got " + std::to_string(order) +
                                ")");
  if (max_points < 0)
    throw std::invalid_argument(where + ": max_points must be >= 0 (got " +
                                std::to_string(max_points) + ")");
  check_shapes(set, where);
  require_finite(set.u, where, "u");

  const std::int64_t experiments = set.u.size(0), times = set.u.size(1), n = set.u.size(2);
  const std::int64_t rows = experiments * times, total = rows * n;
  const int needed = std::max(order, equation.order());
  // [K'+1, E T, n]: d^m u/dx^m of every snapshot; u itself as stored, not round-tripped.
  const at::Tensor u = set.u.reshape({rows, n});
  const at::Tensor derivatives = at::cat({u.unsqueeze(0), grid_derivatives(set, u, needed, where)});

  const at::Tensor target = equation.right_hand_side(derivatives);
  require_finite(target.reshape({experiments, times, n}), where, "the target u_t");

  OperatorTestData data;
  data.inputs = derivatives.slice(0, 0, order + 1).reshape({order + 1, total}).t().contiguous();
  data.target = target.reshape({total});
  data.experiment = at::arange(experiments, kIndex).repeat_interleave(times * n);
  data.x = set.x.repeat({rows});
  data.t = set.t.repeat_interleave(n).repeat({experiments});
  if (max_points == 0 || max_points >= total) return data;

  const at::Tensor keep = evenly_spread_subset(total, max_points);
  data.inputs = data.inputs.index_select(0, keep);
  data.target = data.target.index_select(0, keep);
  data.experiment = data.experiment.index_select(0, keep);
  data.x = data.x.index_select(0, keep);
  data.t = data.t.index_select(0, keep);
  return data;
}

}  // namespace bhpm::eval
