#include "pde/measured_system.h"

#include <ATen/ATen.h>

#include "pde/point_cloud_checks.h"

namespace bhpm::pde {

void validate(const MeasuredSystemExperiment& e, std::int64_t fields, int dimensions,
              const std::string& source) {
  const std::string where = source + ": experiment '" + e.name + "'";
  require_measurements(e.x, "x", 1, e.x.defined() ? e.x.size(0) : 0, where);
  const std::int64_t points = e.points();
  require_measurements(e.t, "t", 1, points, where);
  if (dimensions == 2) require_measurements(e.y, "y", 1, points, where);
  require_measurements(e.u, "the fields", 2, points, where);
  require_rule(
      e.u.size(1) == fields, where,
      "holds " + std::to_string(e.u.size(1)) + " fields, the set names " + std::to_string(fields));
  require_rule(points >= 2, where, "has " + std::to_string(points) + " points (at least 2)");
  const bool two = dimensions == 2;
  require_rule(!repeats_a_point(two ? std::vector<at::Tensor>{e.x, e.y, e.t}
                                    : std::vector<at::Tensor>{e.x, e.t}),
               where,
               std::string("two of its points share ") + (two ? "(x, y, t)" : "(x, t)") +
                   "; average or remove the repeats first");
  require_axis_window(e.x, "x", e.window.x_min, e.window.x_max, where);
  if (two) require_axis_window(e.y, "y", e.window.y_min, e.window.y_max, where);
  require_axis_window(e.t, "t", e.window.t_min, e.window.t_max, where);
}

}  // namespace bhpm::pde
