#pragma once
/// The trained leaves' fields on uniform grids of their experiments' windows, for the
/// weak-form estimate of `bhpm distill` (eval/weak_form.h): each leaf is a smooth fit of its
/// experiment's measurements, so it can be read anywhere in its window, and the weak form
/// needs u on a grid fine enough for quadrature, whatever the measurements' layout.

#include <cstdint>
#include <vector>

#include "pde/grid_field.h"

namespace bhpm::nn {
struct DomainBox;
}

namespace bhpm::model {

class LeafModelImpl;

/// Leaf e's u, u_x and u_t on x_points x t_points points spanning boxes[e] (ends included),
/// without a graph. Throws std::invalid_argument unless there is one box per leaf and
/// x_points, t_points >= 2.
std::vector<pde::GridField> leaf_grid_fields(const LeafModelImpl& leaves,
                                             const std::vector<nn::DomainBox>& boxes,
                                             std::int64_t x_points, std::int64_t t_points);

}  // namespace bhpm::model
