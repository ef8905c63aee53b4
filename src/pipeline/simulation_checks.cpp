#include "pipeline/simulation_checks.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "pde/bounded_experiment_set.h"
#include "pde/bounded_solve.h"
#include "pde/equation.h"
#include "pde/initial_condition.h"

namespace bhpm::pipeline {

void require_simulable(const config::RunConfig& config) {
  const config::SimulateConfig& simulate = config.simulate;
  if (!simulate.bounded() && simulate.initial_condition.kind == "gp") return;
  at::Tensor u0;
  try {  // the initial condition's rules name their own fields
    if (!simulate.bounded()) {
      const pde::PeriodicGrid grid(simulate.x_min, simulate.x_max, simulate.modes);
      pde::make_initial_conditions(grid, simulate.initial_condition, 1, simulate.seed, "check");
      return;
    }
    u0 = pde::bounded_initial_conditions(simulate.bounded_grid(), simulate.modes,
                                         simulate.conditions, simulate.initial_condition, 1,
                                         simulate.seed, "check")[0];
  } catch (const std::invalid_argument& error) {
    throw config::ConfigError(error.what());
  }
  const pde::Equation equation = pde::make_equation(simulate.equation);
  try {
    pde::check_conditions(simulate.conditions,
                          pde::conditions_needed(simulate.bounded_grid(), equation, u0),
                          equation.order(), equation.describe());
  } catch (const std::invalid_argument& error) {
    throw config::ConfigError(config.field("domain.left") + ", domain.right: " + error.what());
  }
}

}  // namespace bhpm::pipeline
