#include "model/leaf_grid_fields.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/root_data.h"

namespace bhpm::model {

std::vector<pde::GridField> leaf_grid_fields(const LeafModelImpl& leaves,
                                             const std::vector<nn::DomainBox>& boxes,
                                             std::int64_t x_points, std::int64_t t_points) {
  if (x_points < 2 || t_points < 2)
    throw std::invalid_argument("leaf grid fields: the grid needs >= 2 points in x and in t (got " +
                                std::to_string(x_points) + " x " + std::to_string(t_points) + ")");
  const auto leaf_count = static_cast<std::size_t>(leaves.options().network.leaves);
  if (boxes.size() != leaf_count)
    throw std::invalid_argument("leaf grid fields: " + std::to_string(boxes.size()) +
                                " boxes for " + std::to_string(leaf_count) + " leaves");
  std::vector<pde::GridField> fields;
  LeafData grid;  // every leaf's grid, t slowest
  std::vector<at::Tensor> xs, ts;
  for (const nn::DomainBox& box : boxes) {
    pde::GridField field;
    field.x = at::linspace(box.x_min, box.x_max, x_points, at::kDouble);
    field.t = at::linspace(box.t_min, box.t_max, t_points, at::kDouble);
    const std::vector<at::Tensor> mesh = at::meshgrid({field.t, field.x}, "ij");
    ts.push_back(mesh[0].reshape({-1}));
    xs.push_back(mesh[1].reshape({-1}));
    fields.push_back(field);
  }
  grid.x = at::stack(xs);
  grid.t = at::stack(ts);
  grid.u = at::zeros_like(grid.x);
  grid.boxes = boxes;
  const RootData rows = root_data_detached(leaves, grid, /*order=*/1);  // v [L T n, 2], u_t
  const at::Tensor v = rows.inputs.view({-1, t_points, x_points, 2});
  const at::Tensor u_t = rows.targets.view({-1, t_points, x_points});
  for (std::size_t e = 0; e < fields.size(); ++e) {
    const auto leaf = static_cast<std::int64_t>(e);
    fields[e].u = v[leaf].select(2, 0).contiguous();
    fields[e].u_x = v[leaf].select(2, 1).contiguous();
    fields[e].u_t = u_t[leaf].contiguous();
  }
  return fields;
}

}  // namespace bhpm::model
