#pragma once
/// Measurements without a solution grid: one experiment is a cloud of P points
/// (x_j, t_j, u_j), any P, on its own space-time window, with an optional noise standard
/// deviation per point. This is what `bhpm import` makes of a user's data and what the
/// leaves are fitted to (paper Eq. 2); simulate's experiments convert to it.

#include <ATen/core/Tensor.h>

#include <string>
#include <utility>
#include <vector>

#include "pde/experiment_set.h"

namespace bhpm::pde {

/// The space-time box [x_min, x_max] x [t_min, t_max] an experiment's leaf lives on.
struct MeasurementWindow {
  double x_min = 0, x_max = 0, t_min = 0, t_max = 0;
};

struct MeasuredExperiment {
  std::string name;
  at::Tensor x, t, u;  ///< [P] double, stored in random order: any prefix is a random subset
  at::Tensor sigma;    ///< [P] double noise standard deviation per point; undefined if unknown
  MeasurementWindow window;
  std::vector<std::pair<std::string, std::string>> attributes;  ///< free text: units, ...

  std::int64_t points() const { return x.size(0); }
};

/// The largest |x|, |t|, |u| and sigma a measurement may have: the leaves scale x and t by
/// their window and u by its spread, whose squares and sums must stay finite (an imported
/// x = 1e308 trained to exit 0 on overflowed scales). Measurements in any units lie far
/// inside.
constexpr double kLargestMeasurement = 1e150;

/// Throws std::invalid_argument naming `source` and the experiment unless x, t, u (and
/// sigma when defined) are finite [P] double arrays of one length P >= 2, at most
/// kLargestMeasurement in magnitude, sigma > 0, no two points share (x, t), the window has
/// positive extent in x and t, and every point lies inside it.
void validate(const MeasuredExperiment& experiment, const std::string& source);

/// The periodic grid box of a simulated set: [x_0, x_0 + n dx] x [t_0, t_last].
MeasurementWindow grid_window(const ExperimentSet& set);

/// The experiments of a simulated set as measurements: experiment e's measured points
/// (already in random order), on grid_window(set), named "<set>-<e>".
std::vector<MeasuredExperiment> measured_experiments(const ExperimentSet& set);

}  // namespace bhpm::pde
