#include "model/leaf_window.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/root_data.h"
#include "pde/boundary_values.h"

namespace bhpm::model {

namespace {

/// (u, u_x, .., d^order u) [P, order+1] of leaf `experiment` at x, t [P], without a graph.
at::Tensor leaf_derivatives(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                            std::int64_t experiment, const at::Tensor& x, const at::Tensor& t,
                            int order) {
  const std::int64_t leaf_count = leaves.options().network.leaves;
  // Every leaf is evaluated (the Taylor pass is batched over leaves); only this one's rows
  // are kept, the others read points of their own boxes.
  LeafData data;
  std::vector<at::Tensor> xs, ts;
  for (std::int64_t l = 0; l < leaf_count; ++l) {
    const nn::DomainBox& box = boxes[static_cast<std::size_t>(l)];
    xs.push_back(l == experiment ? x : at::full_like(x, 0.5 * (box.x_min + box.x_max)));
    ts.push_back(l == experiment ? t : at::full_like(t, 0.5 * (box.t_min + box.t_max)));
  }
  data.x = at::stack(xs);
  data.t = at::stack(ts);
  data.u = at::zeros_like(data.x);
  data.boxes = boxes;
  const RootData rows = root_data_detached(leaves, data, std::max(order, 1));
  return rows.inputs.reshape({leaf_count, x.size(0), -1})[experiment].slice(1, 0, order + 1);
}

/// The conditions d^m u = the leaf's d^m u at x_end, m < r, as series over [0, duration].
std::vector<pde::BoundaryCondition> end_conditions(const at::Tensor& derivatives,
                                                   const std::vector<double>& times, int r) {
  std::vector<pde::BoundaryCondition> conditions;
  for (int m = 0; m < r; ++m) {
    const at::Tensor column = derivatives.select(1, m).contiguous();
    std::vector<double> values(column.data_ptr<double>(),
                               column.data_ptr<double>() + column.numel());
    conditions.push_back(pde::BoundaryCondition::derivative(
        m, pde::tabulated_boundary_value(times, std::move(values)), "the leaf's"));
  }
  return conditions;
}

}  // namespace

LeafWindow leaf_window(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                       std::int64_t experiment, std::int64_t intervals,
                       const pde::ConditionCount& count, std::int64_t series_points) {
  const std::int64_t leaf_count = leaves.options().network.leaves;
  if (experiment < 0 || experiment >= leaf_count ||
      static_cast<std::int64_t>(boxes.size()) != leaf_count)
    throw std::invalid_argument("leaf window: experiment " + std::to_string(experiment) +
                                " has no leaf (" + std::to_string(leaf_count) + " leaves, " +
                                std::to_string(boxes.size()) + " boxes)");
  if (series_points < 2)
    throw std::invalid_argument("leaf window: the boundary series need >= 2 times");
  const nn::DomainBox& box = boxes[static_cast<std::size_t>(experiment)];
  LeafWindow window{pde::ChebyshevGrid(box.x_min, box.x_max, intervals),
                    {},
                    box.t_min,
                    box.t_max - box.t_min,
                    {}};
  const at::Tensor x = window.grid.x();
  window.u0 = leaf_derivatives(leaves, boxes, experiment, x, at::full_like(x, box.t_min), 0)
                  .select(1, 0)
                  .contiguous();

  const at::Tensor offsets = at::linspace(0.0, window.duration, series_points, at::kDouble);
  const std::vector<double> times(offsets.data_ptr<double>(),
                                  offsets.data_ptr<double>() + series_points);
  const int order = std::max(count.left, count.right) - 1;
  if (order < 0) return window;
  const at::Tensor t = offsets + box.t_min;
  window.conditions.left = end_conditions(
      leaf_derivatives(leaves, boxes, experiment, at::full_like(t, box.x_min), t, order), times,
      count.left);
  window.conditions.right = end_conditions(
      leaf_derivatives(leaves, boxes, experiment, at::full_like(t, box.x_max), t, order), times,
      count.right);
  return window;
}

}  // namespace bhpm::model
