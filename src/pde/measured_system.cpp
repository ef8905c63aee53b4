#include "pde/measured_system.h"

#include <ATen/ATen.h>

#include "pde/point_cloud_checks.h"

namespace bhpm::pde {

namespace {

/// u [P, q]: NaN where a field was not measured, every other value finite and bounded,
/// each point measuring a field, each field measured at 2 points at least.
void require_field_values(const at::Tensor& u, std::int64_t fields, std::int64_t points,
                          const std::string& where) {
  require_rule(u.defined() && u.dim() == 2 && u.scalar_type() == at::kDouble, where,
               "the fields must be a two-dimensional double array");
  require_rule(u.size(0) == points && u.size(1) == fields, where,
               "the fields hold [" + std::to_string(u.size(0)) + ", " + std::to_string(u.size(1)) +
                   "] values, [" + std::to_string(points) + ", " + std::to_string(fields) +
                   "] expected");
  const at::Tensor measured = ~at::isnan(u);
  require_measurements(at::where(measured, u, at::zeros_like(u)), "the fields", 2, points, where);
  require_rule(measured.any(1).all().item<bool>(), where,
               "a point measures no field (every field NaN there)");
  require_rule((measured.sum(0) >= 2).all().item<bool>(), where,
               "a field is measured at fewer than 2 of its points");
}

}  // namespace

void validate(const MeasuredSystemExperiment& e, std::int64_t fields, int dimensions,
              const std::string& source) {
  const std::string where = source + ": experiment '" + e.name + "'";
  require_measurements(e.x, "x", 1, e.x.defined() ? e.x.size(0) : 0, where);
  const std::int64_t points = e.points();
  require_measurements(e.t, "t", 1, points, where);
  if (dimensions == 2) require_measurements(e.y, "y", 1, points, where);
  require_field_values(e.u, fields, points, where);
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
