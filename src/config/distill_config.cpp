#include "config/distill_config.h"

#include <cmath>
#include <string>
#include <vector>

#include "util/number_format.h"

namespace bhpm::config {

namespace {

std::string list_text(const std::vector<double>& values) {
  std::string text;
  for (double value : values)
    text += (text.empty() ? "" : ", ") + util::format_significant(value, 10);
  return "[" + text + "]";
}

}  // namespace

void read_weak_form(ConfigSection& section, DistillConfig& config) {
  config.weak_form = section.boolean("weak_form", config.weak_form);
  eval::WeakFormOptions& weak = config.weak;
  weak.space_factors = section.numbers("weak_space_factors", weak.space_factors);
  weak.time_factor = section.number("weak_time_factor", weak.time_factor);
  const std::vector<double> grid = section.numbers(
      "weak_grid",
      {static_cast<double>(config.weak_x_points), static_cast<double>(config.weak_t_points)});
  section.require(grid.size() == 2 && grid[0] >= 16 && grid[1] >= 16 &&
                      grid[0] == std::floor(grid[0]) && grid[1] == std::floor(grid[1]),
                  "weak_grid", "must be two integers [x points, t points], each >= 16",
                  list_text(grid));
  config.weak_x_points = static_cast<std::int64_t>(grid[0]);
  config.weak_t_points = static_cast<std::int64_t>(grid[1]);
  weak.samples = config.samples;
  weak.resample_experiments = config.resample_experiments;
  // eval::validate owns the samples rule too: distill's samples are the weak form's.
  section.validate([&] { eval::validate(weak); },
                   {{"space_factors", "weak_space_factors"}, {"time_factor", "weak_time_factor"}});
}

void read_equation_fit(ConfigSection& section, DistillConfig& config) {
  config.samples = section.integer("samples", config.samples);
  const std::int64_t degree = section.integer_at_least("degree", config.degree, 1);
  section.require(degree <= 5, "degree", "must be in [1, 5]", std::to_string(degree));
  config.degree = static_cast<int>(degree);
  config.resample_experiments =
      section.boolean("resample_experiments", config.resample_experiments);
  double& max_unexplained = config.options.max_unexplained;
  max_unexplained = section.number("max_unexplained", max_unexplained);
  section.validate([&] { eval::validate(config.options); });
}

DistillConfig read_distill_config(ConfigReader& reader) {
  DistillConfig config;
  ConfigSection section = reader.section("distill");
  read_equation_fit(section, config);
  config.max_points = section.integer_at_least("max_points", config.max_points, 0);
  read_weak_form(section, config);
  return config;
}

}  // namespace bhpm::config
