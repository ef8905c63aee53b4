#include "config/system_config.h"

#include <cmath>
#include <filesystem>

#include "config/config_reader.h"
#include "config/data_section.h"
#include "pde/system_defaults.h"
#include "util/memory_limit.h"
#include "util/option_check.h"

namespace bhpm::config {

namespace {

pde::FieldSystem read_system(ConfigReader& reader) {
  ConfigSection section = reader.section("system");
  pde::FieldSystemOptions options;
  options.name = section.one_of("name", "nls", pde::field_system_names());
  options.field_names = section.field_names();
  if (options.name == "general" || options.name == "unknown") {
    options.dimensions = static_cast<int>(section.integer("dimensions", 1));
    options.fields = section.strings("fields", {"u"});
  }
  if (options.name == "general") {
    options.linear = section.strings("linear", {});
    options.nonlinear = section.strings("nonlinear", {});
  } else if (options.name != "unknown") {
    for (const auto& [key, fallback] : pde::field_system_parameters(options.name))
      options.parameters[key] = section.number(key, fallback);
  }
  return pde::make_field_system(options);
}

/// One axis's [min, max): finite, max > min.
void read_axis(ConfigSection& domain, const std::string& axis, double fallback_min,
               double fallback_max, double& min, double& max) {
  min = domain.number(axis + "_min", fallback_min);
  max = domain.number(axis + "_max", fallback_max);
  domain.require(std::isfinite(min) && std::isfinite(max) && max > min, axis + "_max",
                 "must be finite and greater than domain." + axis + "_min",
                 util::option_value(max));
}

void read_box_and_solver(ConfigReader& reader, SystemConfig& config) {
  const int dimensions = config.system.dimensions;
  const pde::SystemDefaults d = pde::system_defaults(config.system.name, dimensions);
  ConfigSection domain = reader.section("domain");
  read_axis(domain, "x", d.x_min, d.x_max, config.x_min, config.x_max);
  ConfigSection solver = reader.section("solver");
  config.points = solver.integer("points", d.points);
  const std::string even = "must be an even integer >= 4";
  solver.require(config.points >= 4 && config.points % 2 == 0, "points", even,
                 util::option_value(config.points));
  if (dimensions == 2) {
    read_axis(domain, "y", d.x_min, d.x_max, config.y_min, config.y_max);
    config.points_y = solver.integer("points_y", config.points);
    solver.require(config.points_y >= 4 && config.points_y % 2 == 0, "points_y", even,
                   util::option_value(config.points_y));
  } else {
    const std::string rule = "is read for a system in two dimensions only";
    for (const char* key : {"y_min", "y_max"})
      domain.require(!domain.has(key), key, rule, "a value");
    solver.require(!solver.has("points_y"), "points_y", rule, "a value");
    config.points_y = 1;
  }
  pde::SystemSolveOptions& solve = config.sets.solve;
  solve.t_end = domain.number("t_end", d.t_end);
  solve.output_dt = solver.number("output_dt", d.output_dt);
  solve.dt = solver.number("dt", d.dt);
  solve.tolerance = solver.number("tolerance", pde::SystemSolveOptions{}.tolerance);
  solve.contour_points = static_cast<int>(solver.integer("contour_points", solve.contour_points));
  solve.blowup_factor = solver.number("blowup_factor", solve.blowup_factor);
  reader.validate([&] { pde::validate(solve); }, {{"t_end", "domain.t_end"}, {"", "solver."}});
}

void read_initial_fields(ConfigReader& reader, SystemConfig& config) {
  const pde::SystemDefaults d = pde::system_defaults(config.system.name, config.system.dimensions);
  ConfigSection section = reader.section("initial_condition");
  pde::SystemInitialConditionOptions& ic = config.sets.initial_condition;
  ic.kind = section.one_of("kind", "gp", pde::system_initial_condition_kinds());
  ic.gp.amplitude = section.number("amplitude", d.ic_amplitude);
  ic.gp.length_scale = section.number("length_scale", d.ic_length_scale);
  section.validate([&] { pde::validate(ic.gp); });
  ic.expressions = section.strings("expressions", {});
  section.require(
      ic.kind != "expression" ||
          static_cast<std::int64_t>(ic.expressions.size()) == config.system.size(),
      "expressions",
      "must hold one expression in x and y per field (" + std::to_string(config.system.size()) +
          ") when kind = \"expression\"",
      util::option_value(static_cast<std::int64_t>(ic.expressions.size())) + " expressions");
  ic.field_names = section.field_names();
}

/// The stored grids [E, T, q, points] (8 bytes a value) must fit in memory.
void read_system_data(ConfigReader& reader, SystemConfig& config) {
  ConfigSection section = reader.section("data");
  const DataSection data = read_data_section(section, 4, 4);
  config.train_experiments = data.train_experiments;
  config.test_experiments = data.test_experiments;
  config.sets.measurements = data.measurements;
  const pde::SystemSolveOptions& solve = config.sets.solve;
  const std::int64_t times = std::llround(solve.t_end / solve.output_dt) + 1;
  const std::int64_t points = config.points * config.points_y;
  section.validate([&] { pde::validate(config.sets.measurements, times * points); });
  const std::int64_t experiments = config.train_experiments + config.test_experiments;
  const double bytes = 8.0 * static_cast<double>(experiments) * static_cast<double>(times) *
                       static_cast<double>(config.system.size()) * static_cast<double>(points);
  const std::string excess = util::memory_excess(
      bytes, util::option_value(experiments) + " experiments x " + util::option_value(times) +
                 " stored times x " + util::option_value(config.system.size()) + " fields x " +
                 util::option_value(points) + " points");
  if (!excess.empty())
    throw ConfigError(reader.field_names()("solver.points") +
                      " (with data.train_experiments and data.test_experiments): the simulation " +
                      excess);
}

ConfigReader reader_with(const std::string& path, const std::vector<std::string>& overrides) {
  ConfigReader reader = ConfigReader::from_file(path);
  for (const auto& assignment : overrides) reader.apply_override(assignment);
  return reader;
}

}  // namespace

pde::PeriodicBox SystemConfig::box() const {
  if (system.dimensions == 2) return {x_min, x_max, points, y_min, y_max, points_y};
  return {x_min, x_max, points};
}

bool configures_a_system(const std::string& path, const std::vector<std::string>& overrides) {
  return reader_with(path, overrides).given_sections().count("system") > 0;
}

namespace {

/// Every section of a system's configuration; relative paths in [run] from `base_dir`.
SystemConfig read_system_sections(ConfigReader& reader, const std::string& base_dir) {
  SystemConfig config;
  ConfigSection top = reader.section("");
  const std::int64_t seed = top.integer("seed", 0);
  top.require(seed >= 0, "seed", "must be an integer >= 0", util::option_value(seed));
  config.sets.seed = static_cast<std::uint64_t>(seed);
  config.system = read_system(reader);
  read_box_and_solver(reader, config);
  if (config.system.has_equations()) {  // what a simulation reads: unknown keys otherwise
    read_initial_fields(reader, config);
    read_system_data(reader, config);
  }
  config.learning = read_system_learning_config(reader, config.system.dimensions);
  config.pipeline = read_system_pipeline_config(reader, base_dir);
  reader.reject_unknown_keys();
  config.resolved_toml = reader.resolved_toml();
  config.field = reader.field_names();
  return config;
}

}  // namespace

SystemConfig read_system_config(const std::string& path,
                                const std::vector<std::string>& overrides) {
  ConfigReader reader = reader_with(path, overrides);
  return read_system_sections(reader, std::filesystem::path(path).parent_path().string());
}

SystemConfig read_stored_system_config(const std::string& text, const std::string& source,
                                       const std::vector<std::string>& overrides) {
  ConfigReader reader = ConfigReader::from_string(text, source);
  for (const auto& assignment : overrides) reader.apply_override(assignment);
  return read_system_sections(reader, "");
}

void require_equations(const SystemConfig& config) {
  if (!config.system.has_equations())
    throw ConfigError(config.field("system.name") +
                      ": a system of unknown equations has nothing to simulate; it is learned "
                      "from measurements that `bhpm import` made a dataset of "
                      "(docs/importing-data.md)");
}

}  // namespace bhpm::config
