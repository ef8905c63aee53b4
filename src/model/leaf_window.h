#pragma once
/// An experiment's own initial-boundary value problem read off its trained leaf
/// (docs/boundary-conditions.md, "An experiment's own window"). A leaf is a smooth fit of
/// its experiment's measurements over the box [x_min, x_max] x [t_min, t_max], so it gives
/// u at the window's start on any grid, and u and its x-derivatives at the window's ends at
/// any time: what a prediction on that window needs, with no solution grid.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"

namespace bhpm::nn {
struct DomainBox;
}

namespace bhpm::model {

class LeafModelImpl;

struct LeafWindow {
  pde::ChebyshevGrid grid;  ///< [x_min, x_max] of the experiment's box
  at::Tensor u0;            ///< [n+1] the leaf's u at t_min on the grid's points
  double t_start = 0.0;     ///< t_min: the problem's time 0
  double duration = 0.0;    ///< t_max - t_min: its horizon
  /// At an end that needs r conditions: d^m u = the leaf's d^m u there, m = 0..r-1, each a
  /// series of the leaf's values at series_points times over [0, duration] (times from
  /// t_start), interpolated (pde/boundary_values.h).
  pde::BoundaryConditions conditions;
};

/// Experiment `experiment`'s window on `intervals` Chebyshev intervals, with `count`
/// conditions at each end (pde::conditions_needed of the operator that will be solved).
/// Throws std::invalid_argument for an experiment without a leaf or box, intervals < 2 or
/// series_points < 2.
LeafWindow leaf_window(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                       std::int64_t experiment, std::int64_t intervals,
                       const pde::ConditionCount& count, std::int64_t series_points = 401);

}  // namespace bhpm::model
