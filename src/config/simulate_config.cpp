#include "config/simulate_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "config/data_section.h"
#include "pde/boundary_condition_text.h"
#include "pde/dataset_defaults.h"
#include "pde/dealiasing.h"
#include "util/memory_limit.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::config {

namespace {

std::string text(double value) { return util::format_significant(value, 10); }
std::string text(std::int64_t value) { return std::to_string(value); }

void read_equation(ConfigReader& reader, SimulateConfig& config) {
  ConfigSection section = reader.section("equation");
  auto& eq = config.equation;
  eq.name = section.one_of("name", "burgers", pde::equation_names());
  eq.nu = section.number("nu", 0.1);
  eq.delta = section.number("delta", 1.0);
  eq.linear = section.numbers("linear", {});
  eq.nonlinear = section.string("nonlinear", "");
  eq.field_names = section.field_names();
  section.require(eq.linear.size() <= 7, "linear", "at most 7 coefficients (orders 0..6)",
                  std::to_string(eq.linear.size()));
  pde::make_equation(eq);  // its rules (finite coefficients, a nonlinear term that parses)
}

/// The conditions of one end from their texts, read from `field` (domain.left or
/// domain.right).
std::vector<pde::BoundaryCondition> parse_end(const std::vector<std::string>& texts,
                                              const std::string& field, double t_end,
                                              const std::string& base_dir) {
  std::vector<pde::BoundaryCondition> conditions;
  for (const std::string& text : texts) {
    try {
      conditions.push_back(pde::parse_boundary_condition(text, t_end, base_dir, field));
    } catch (const std::invalid_argument& error) {
      throw ConfigError(error.what());
    }
  }
  return conditions;
}

/// domain.boundary, and on a bounded domain its conditions and solver.intervals. The
/// counts are checked where the operator is known (pde/bounded_solve.h).
void read_boundary(ConfigSection& domain, ConfigSection& solver, const std::string& base_dir,
                   SimulateConfig& config) {
  config.boundary = domain.one_of("boundary", "periodic", boundary_kinds());
  if (!config.bounded()) {
    const std::string rule =
        "is read on a bounded domain only (domain.boundary = \"conditions\"); a periodic "
        "domain has no ends";
    for (const char* key : {"left", "right"})
      domain.require(!domain.has(key), key, rule, "a value");
    solver.require(!solver.has("intervals"), "intervals", rule, "a value");
    return;
  }
  const double t_end = config.solve.t_end;
  config.conditions.left =
      parse_end(domain.strings("left", {}), domain.field("left"), t_end, base_dir);
  config.conditions.right =
      parse_end(domain.strings("right", {}), domain.field("right"), t_end, base_dir);
  config.intervals = solver.integer("intervals", pde::kDefaultIntervals);
  solver.require(config.intervals >= 4 && config.intervals <= 1024, "intervals",
                 "must be in [4, 1024] (Chebyshev intervals of a bounded domain)",
                 text(config.intervals));
}

void read_domain_and_solver(ConfigReader& reader, const std::string& base_dir,
                            SimulateConfig& config) {
  const pde::DatasetDefaults d = pde::dataset_defaults(config.equation.name);
  ConfigSection domain = reader.section("domain");
  config.x_min = domain.number("x_min", d.x_min);
  config.x_max = domain.number("x_max", d.x_max);
  domain.require(
      std::isfinite(config.x_min) && std::isfinite(config.x_max) && config.x_max > config.x_min,
      "x_max", "must be finite and greater than domain.x_min", text(config.x_max));
  config.solve.t_end = domain.number("t_end", d.t_end);

  ConfigSection solver = reader.section("solver");
  config.modes = solver.integer("modes", d.modes);
  solver.require(config.modes >= 4 && config.modes % 2 == 0, "modes",
                 "must be an even integer >= 4", text(config.modes));
  pde::SolveOptions& solve = config.solve;
  solve.stepper.dt = solver.number("dt", d.dt);
  solve.output_dt = solver.number("output_dt", d.output_dt);
  solve.tolerance = solver.number("tolerance", 0.0);
  solve.stepper.dealias =
      solver.one_of_or_boolean("dealias", "pad", pde::dealiasing_names(), "truncate", "none");
  const std::int64_t contour_points = solver.integer("contour_points", 64);
  solve.stepper.contour_points = static_cast<int>(
      std::clamp<std::int64_t>(contour_points, 0, std::numeric_limits<int>::max()));
  solve.blowup_factor = solver.number("blowup_factor", 1e3);
  reader.validate([&] { pde::validate(solve); },
                  {{"t_end", "domain.t_end"}, {"stepper.", "solver."}, {"", "solver."}});
  read_boundary(domain, solver, base_dir, config);
}

void read_initial_condition(ConfigReader& reader, const std::string& base_dir,
                            SimulateConfig& config) {
  const pde::DatasetDefaults d = pde::dataset_defaults(config.equation.name);
  ConfigSection section = reader.section("initial_condition");
  auto& ic = config.initial_condition;
  ic.kind = section.one_of("kind", "gp", pde::initial_condition_kinds());
  ic.gp.amplitude = section.number("amplitude", d.ic_amplitude);
  ic.gp.length_scale = section.number("length_scale", d.ic_length_scale);
  section.validate([&] { pde::validate(ic.gp); });
  ic.expression = section.string("expression", "-sin(pi*x/8)");
  ic.file = section.string("file", "");
  section.require(ic.kind != "file" || !ic.file.empty(), "file",
                  "must name a text file of grid values when kind = \"file\"", "\"\"");
  if (!ic.file.empty() && std::filesystem::path(ic.file).is_relative())
    ic.file = (std::filesystem::path(base_dir) / ic.file).string();
  ic.field_names = section.field_names();
}

/// The simulated grids [E, T, n] (8 bytes a value) and the ETDRK4 coefficients' contour
/// integrals (about ten complex arrays [n/2 + 1, contour_points] alive at once) must fit in
/// memory: `solver.modes = 1e9` would hang in swap, not fail.
void require_memory(const ConfigReader& reader, const SimulateConfig& config, std::int64_t times) {
  const double experiments =
      static_cast<double>(config.train_experiments + config.test_experiments);
  const double modes = static_cast<double>(config.modes);
  const double bytes = experiments * static_cast<double>(times) * modes * 8.0 +
                       10.0 * (modes / 2 + 1) * config.solve.stepper.contour_points * 16.0;
  const std::string excess = util::memory_excess(
      bytes, text(config.train_experiments + config.test_experiments) + " experiments x " +
                 text(times) + " stored times x " + text(config.modes) + " points");
  const util::FieldNames field = reader.field_names();
  if (!excess.empty())
    throw ConfigError(field("solver.modes") + " (with data.train_experiments and " +
                      "data.test_experiments): the simulation " + excess);
}

void read_data(ConfigReader& reader, SimulateConfig& config) {
  ConfigSection section = reader.section("data");
  const DataSection data = read_data_section(section, 10, 10);
  config.train_experiments = data.train_experiments;
  config.test_experiments = data.test_experiments;
  config.measurements = data.measurements;
  const std::int64_t times = std::llround(config.solve.t_end / config.solve.output_dt) + 1;
  section.validate([&] { pde::validate(config.measurements, times * config.modes); });
  require_memory(reader, config, times);
}

}  // namespace

const std::vector<std::string>& boundary_kinds() {
  static const std::vector<std::string> kinds = {"periodic", "conditions"};
  return kinds;
}

SimulateConfig read_simulate_config(ConfigReader& reader, const std::string& base_dir) {
  SimulateConfig config;
  ConfigSection top = reader.section("");
  const std::int64_t seed = top.integer("seed", 0);
  top.require(seed >= 0, "seed", "must be an integer >= 0", text(seed));
  config.seed = static_cast<std::uint64_t>(seed);
  read_equation(reader, config);
  read_domain_and_solver(reader, base_dir, config);
  read_initial_condition(reader, base_dir, config);
  read_data(reader, config);
  return config;
}

}  // namespace bhpm::config
