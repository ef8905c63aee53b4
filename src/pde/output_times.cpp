#include "pde/output_times.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdint>

#include "util/option_check.h"

namespace bhpm::pde {

void validate_output_times(double t_end, double output_dt, const std::string& owner) {
  util::require_positive(t_end, owner, "t_end");
  util::require_option(output_dt > 0.0 && output_dt <= t_end, owner, "output_dt",
                       "must be in (0, t_end]", util::option_value(output_dt));
  const double ratio = t_end / output_dt;
  util::require_option(std::abs(ratio - std::round(ratio)) <= 1e-9 * ratio, owner, "output_dt",
                       "must divide t_end = " + util::option_value(t_end),
                       util::option_value(output_dt));
}

at::Tensor uniform_output_times(double t_end, double output_dt, const std::string& owner) {
  validate_output_times(t_end, output_dt, owner);
  return at::arange(static_cast<std::int64_t>(std::llround(t_end / output_dt)) + 1, at::kDouble) *
         output_dt;
}

}  // namespace bhpm::pde
