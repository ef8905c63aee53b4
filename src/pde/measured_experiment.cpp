#include "pde/measured_experiment.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pde/point_cloud_checks.h"

namespace bhpm::pde {

void validate(const MeasuredExperiment& e, const std::string& source) {
  const std::string where = source + ": experiment '" + e.name + "'";
  require_measurements(e.x, "x", 1, e.x.defined() ? e.x.size(0) : 0, where);
  for (const auto& [name, values] : {std::pair{"t", &e.t}, {"u", &e.u}, {"sigma", &e.sigma}})
    if (values->defined() || std::string(name) != "sigma")
      require_measurements(*values, name, 1, e.x.size(0), where);
  require_rule(e.points() >= 2, where,
               "has " + std::to_string(e.points()) + " points (at least 2)");
  require_rule(!repeats_a_point({e.x, e.t}), where,
               "two of its points share (x, t); average or remove the repeats first");
  if (e.sigma.defined())
    require_rule((e.sigma > 0).all().item<bool>(), where, "sigma must be positive at every point");
  require_axis_window(e.x, "x", e.window.x_min, e.window.x_max, where);
  require_axis_window(e.t, "t", e.window.t_min, e.window.t_max, where);
}

MeasurementWindow grid_window(const ExperimentSet& set) {
  const int64_t n = set.x.size(0);
  const double x0 = set.x[0].item<double>();
  if (!set.conditions.empty())  // a bounded domain's Chebyshev points: [x_0, x_last]
    return {x0, set.x[n - 1].item<double>(), set.t[0].item<double>(), set.t[-1].item<double>()};
  const double dx = (set.x[n - 1].item<double>() - x0) / static_cast<double>(n - 1);
  return {x0, x0 + dx * static_cast<double>(n), set.t[0].item<double>(), set.t[-1].item<double>()};
}

std::vector<MeasuredExperiment> measured_experiments(const ExperimentSet& set) {
  std::vector<MeasuredExperiment> experiments;
  const MeasurementWindow window = grid_window(set);
  for (std::int64_t e = 0; e < set.sample_u.size(0); ++e)
    experiments.push_back({set.name + "-" + std::to_string(e),
                           set.sample_x[e],
                           set.sample_t[e],
                           set.sample_u[e],
                           {},
                           window,
                           {}});
  return experiments;
}

}  // namespace bhpm::pde
