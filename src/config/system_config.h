#pragma once
/// The configuration of a field system (a [system] section instead of [equation]): for
/// `bhpm simulate` the system, its periodic box, the solver, the initial conditions and the
/// measurements, read strictly from TOML with the defaults of pde/system_defaults.h; for
/// `bhpm train` the leaves and the roots (config/system_learning_config.h); for `bhpm run`
/// its stages ([run], config/pipeline_config.h).
/// docs/systems.md lists every key; any other section or key is refused.

#include <cstdint>
#include <string>
#include <vector>

#include "config/pipeline_config.h"
#include "config/system_learning_config.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/system_experiment_set.h"
#include "util/option_check.h"

namespace bhpm::config {

struct SystemConfig {
  pde::FieldSystem system;
  double x_min = -8.0, x_max = 8.0, y_min = -8.0, y_max = 8.0;
  std::int64_t points = 128, points_y = 128;
  /// What every set shares: the seed, the initial conditions, the measurements and the
  /// solver (its name and experiments set per set).
  pde::SystemSetOptions sets;
  std::int64_t train_experiments = 4;
  std::int64_t test_experiments = 4;
  SystemLearningConfig learning;
  PipelineConfig pipeline;    ///< [run]: what `bhpm run` does (cli/system_run.h)
  std::string resolved_toml;  ///< every value read, defaults included
  /// How messages name a key: "FILE: section.key" or "--set section.key".
  util::FieldNames field = util::section_fields("");

  pde::PeriodicBox box() const;
};

/// Whether the configuration file, with the "section.key=value" overrides, has a [system]
/// section: `bhpm simulate` then reads it with read_system_config.
bool configures_a_system(const std::string& path, const std::vector<std::string>& overrides);

/// Reads seed, [system], [domain], [solver], [initial_condition], [data], the learning
/// sections and [run] (its paths relative to the file's folder); every violated rule throws
/// ConfigError naming the file (or --set) and the field.
SystemConfig read_system_config(const std::string& path, const std::vector<std::string>& overrides);

/// Throws ConfigError naming system.name when the system's equations are unknown: such a
/// system is learned from imported measurements and cannot be simulated.
void require_equations(const SystemConfig& config);

/// Reads the resolved configuration stored in an output (a run folder's checkpoint), with
/// the "section.key=value" overrides, as read_system_config reads a file; `source` names it
/// in errors.
SystemConfig read_stored_system_config(const std::string& text, const std::string& source,
                                       const std::vector<std::string>& overrides = {});

}  // namespace bhpm::config
