#pragma once
/// The configuration of `bhpm simulate`: equation, domain, solver, initial conditions and
/// measurement sampling, read strictly from TOML with the paper's defaults.
///
/// Defaults depend on the equation (pde/dataset_defaults.h); docs/configuration.md lists
/// every key.

#include <cstdint>
#include <string>
#include <vector>

#include "config/config_reader.h"
#include "pde/boundary_conditions.h"
#include "pde/bounded_solve.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/experiment_set.h"
#include "pde/initial_condition.h"
#include "pde/periodic_solve.h"

namespace bhpm::config {

struct SimulateConfig {
  std::uint64_t seed = 0;
  pde::EquationOptions equation;
  double x_min = -8.0, x_max = 8.0;
  /// "periodic", or "conditions": the interval [x_min, x_max] with `conditions` at its
  /// ends (domain.left, domain.right; docs/boundary-conditions.md, "Conditions in the
  /// configuration"), solved on `intervals` Chebyshev intervals.
  std::string boundary = "periodic";
  pde::BoundaryConditions conditions;
  std::int64_t intervals = pde::kDefaultIntervals;
  std::int64_t modes = 256;
  pde::SolveOptions solve;
  pde::InitialConditionOptions initial_condition;
  pde::MeasurementOptions measurements;
  std::int64_t train_experiments = 10;
  std::int64_t test_experiments = 10;

  bool bounded() const { return boundary != "periodic"; }
  /// The bounded domain's grid: [x_min, x_max] on `intervals` Chebyshev intervals.
  pde::ChebyshevGrid bounded_grid() const { return {x_min, x_max, intervals}; }
};

/// The values of domain.boundary.
const std::vector<std::string>& boundary_kinds();

/// Reads seed, [equation], [domain], [solver], [initial_condition] and [data]; every
/// violated rule throws ConfigError naming the field. Relative file paths are taken
/// relative to `base_dir` (the configuration file's folder).
SimulateConfig read_simulate_config(ConfigReader& reader, const std::string& base_dir);

}  // namespace bhpm::config
