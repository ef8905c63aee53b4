#pragma once
/// What `bhpm simulate` and the simulate stage of `bhpm run` check before any work
/// (docs/boundary-conditions.md, "Simulated data on a bounded domain").

#include "config/run_config.h"

namespace bhpm::pipeline {

/// The initial condition can be made (an expression finite and, on a periodic domain,
/// periodic; a file present and of the grid's length; GP draws meet their rules by
/// construction), and on a bounded domain the conditions fit the equation at the first
/// initial condition (their count at each end, pde/bounded_solve.h). Throws
/// config::ConfigError naming the field.
void require_simulable(const config::RunConfig& config);

}  // namespace bhpm::pipeline
