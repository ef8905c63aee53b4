#include "pde/boundary_elimination.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace bhpm::pde {

at::Tensor condition_matrix(const ChebyshevGrid& grid, const BoundaryConditions& conditions) {
  int highest = 0;
  for (const auto* side : {&conditions.left, &conditions.right})
    for (const BoundaryCondition& c : *side) highest = std::max(highest, c.order());
  std::vector<at::Tensor> d;
  for (int m = 0; m <= highest; ++m) d.push_back(grid.differentiation_matrix(m));
  std::vector<at::Tensor> rows;
  for (const auto& [side, node] : {std::pair{&conditions.left, std::int64_t{0}},
                                   std::pair{&conditions.right, grid.points() - 1}})
    for (const BoundaryCondition& c : *side) {
      at::Tensor row = at::zeros({grid.points()}, at::kDouble);
      for (std::size_t m = 0; m < c.weights.size(); ++m)
        if (c.weights[m] != 0.0) row = row + c.weights[m] * d[m][node];
      rows.push_back(row);
    }
  return rows.empty() ? at::empty({0, grid.points()}, at::kDouble) : at::stack(rows);
}

at::Tensor condition_data(const std::vector<BoundaryCondition>& end, const at::Tensor& t) {
  const at::Tensor times = t.to(at::kDouble).contiguous();
  const auto time = times.accessor<double, 1>();
  at::Tensor values =
      at::empty({static_cast<std::int64_t>(end.size()), times.size(0)}, at::kDouble);
  auto out = values.accessor<double, 2>();
  for (std::size_t c = 0; c < end.size(); ++c)
    for (std::int64_t i = 0; i < times.size(0); ++i)
      out[static_cast<std::int64_t>(c)][i] = end[c].value(time[i]);
  return values;
}

BoundaryElimination::BoundaryElimination(const ChebyshevGrid& grid,
                                         const BoundaryConditions& conditions, int max_order) {
  const std::int64_t points = grid.points();
  const auto r_left = static_cast<std::int64_t>(conditions.left.size());
  const auto r_right = static_cast<std::int64_t>(conditions.right.size());
  const std::int64_t r = r_left + r_right;
  if (points - r < 2)
    throw std::invalid_argument("boundary conditions: " + std::to_string(r) + " conditions on " +
                                std::to_string(points) + " points leave fewer than 2 unknowns");
  int highest = max_order;
  for (const auto* side : {&conditions.left, &conditions.right})
    for (const BoundaryCondition& c : *side) highest = std::max(highest, c.order());
  std::vector<at::Tensor> d;
  for (int m = 0; m <= highest; ++m) d.push_back(grid.differentiation_matrix(m));

  std::vector<std::int64_t> dependent, independent;
  const at::Tensor rows = condition_matrix(grid, conditions);  // [r, n+1]
  for (std::int64_t k = 0; k < r_left; ++k) {
    dependent.push_back(k);
    values_.push_back(conditions.left[k].value);
  }
  for (std::int64_t k = 0; k < r_right; ++k) {
    dependent.push_back(points - 1 - k);
    values_.push_back(conditions.right[k].value);
  }
  for (std::int64_t j = r_left; j < points - r_right; ++j) independent.push_back(j);
  independent_ = at::tensor(independent, at::kLong);
  const at::Tensor dependent_index = at::tensor(dependent, at::kLong);

  const at::Tensor b_dep = rows.index_select(1, dependent_index);
  const at::Tensor b_ind = rows.index_select(1, independent_);
  // The conditions must fix the dependent values: B_dep well conditioned.
  const at::Tensor singular = at::linalg_svdvals(b_dep);
  if (r > 0 && !(singular.min().item<double>() > 1e-12 * singular.max().item<double>()))
    throw std::invalid_argument(
        "boundary conditions: the conditions at an end are not independent (two conditions "
        "on the same derivative, or a combination of the others)");
  const at::Tensor b_dep_inverse = r > 0 ? at::linalg_inv(b_dep) : at::zeros({0, 0}, at::kDouble);

  const std::int64_t n_i = independent_.size(0);
  p_ = at::zeros({points, n_i}, at::kDouble);
  q_ = at::zeros({points, r}, at::kDouble);
  p_.index_put_({independent_, at::arange(n_i, at::kLong)}, 1.0);
  if (r > 0) {
    p_.index_copy_(0, dependent_index, -at::matmul(b_dep_inverse, b_ind));
    q_.index_copy_(0, dependent_index, b_dep_inverse);
  }
  std::vector<at::Tensor> a, c;
  for (int m = 0; m <= max_order; ++m) {
    a.push_back(at::matmul(d[m], p_));
    c.push_back(at::matmul(d[m], q_));
  }
  a_ = at::stack(a);
  c_ = at::stack(c);

  // The equation at the n_i Chebyshev points of the first kind.
  const double pi = std::acos(-1.0);
  const at::Tensor angles =
      (2.0 * at::arange(n_i, at::kDouble) + 1.0) * (pi / (2.0 * static_cast<double>(n_i)));
  const at::Tensor first_kind =
      0.5 * (grid.a() + grid.b()) - 0.5 * (grid.b() - grid.a()) * at::cos(angles);
  const at::Tensor r_matrix = grid.interpolation_matrix(first_kind);
  s_ = at::linalg_solve(at::matmul(r_matrix, p_), r_matrix);
  t_ = at::matmul(s_, q_);
}

at::Tensor BoundaryElimination::values(double t) const {
  at::Tensor g = at::empty({static_cast<std::int64_t>(values_.size())}, at::kDouble);
  auto gs = g.accessor<double, 1>();
  for (std::size_t k = 0; k < values_.size(); ++k) gs[static_cast<std::int64_t>(k)] = values_[k](t);
  return g;
}

at::Tensor BoundaryElimination::value_rates(double t) const {
  const double h = 1e-4 * std::max(1.0, std::abs(t));
  return (8.0 * (values(t + h) - values(t - h)) - (values(t + 2.0 * h) - values(t - 2.0 * h))) /
         (12.0 * h);
}

at::Tensor BoundaryElimination::rates(const at::Tensor& right_hand_side,
                                      const at::Tensor& value_rates) const {
  return at::matmul(s_, right_hand_side) - at::matmul(t_, value_rates);
}

at::Tensor BoundaryElimination::derivatives(const at::Tensor& unknowns,
                                            const at::Tensor& values) const {
  return at::matmul(a_, unknowns) + at::matmul(c_, values);
}

at::Tensor BoundaryElimination::field(const at::Tensor& unknowns, const at::Tensor& values) const {
  return at::matmul(p_, unknowns) + at::matmul(q_, values);
}

}  // namespace bhpm::pde
