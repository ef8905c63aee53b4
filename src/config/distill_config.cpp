#include "config/distill_config.h"

#include <cmath>

#include "util/number_format.h"

namespace bhpm::config {

DistillConfig read_distill_config(ConfigReader& reader) {
  DistillConfig config;
  ConfigSection section = reader.section("distill");
  config.samples = section.integer_at_least("samples", config.samples, 2);
  const std::int64_t degree = section.integer_at_least("degree", config.degree, 1);
  section.require(degree <= 5, "degree", "must be in [1, 5]", std::to_string(degree));
  config.degree = static_cast<int>(degree);
  config.max_points = section.integer_at_least("max_points", config.max_points, 0);
  config.resample_experiments =
      section.boolean("resample_experiments", config.resample_experiments);
  double& max_unexplained = config.options.max_unexplained;
  max_unexplained = section.number("max_unexplained", max_unexplained);
  section.require(max_unexplained > 0.0 && max_unexplained < 1.0, "max_unexplained",
                  "must be in (0, 1)", util::format_significant(max_unexplained, 10));
  return config;
}

}  // namespace bhpm::config
