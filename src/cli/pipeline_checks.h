#pragma once
/// What `bhpm run` (and `bhpm sweep`, for every member) checks before any work: a
/// configuration the listed stages can run, inputs that some stage produces or RUN_DIR
/// already holds, and no output in RUN_DIR made by another configuration.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "config/run_layout.h"

namespace bhpm::cli {

/// read_run_config's rules plus the sections the listed stages need ([equation] and
/// [data] to simulate unless run.data names a dataset, [refinement_study] for the
/// refinement stage), run.data and run.predict_ic_files present, initial conditions and
/// boundary conditions the simulate stage can use (pipeline/simulation_checks.h), and the predicted
/// experiments among the held-out ones that have a truth grid on the configured domain. Throws
/// config::ConfigError naming the file, the field and the rule.
config::RunConfig read_pipeline_configuration(const std::string& config_path,
                                              const std::vector<std::string>& overrides);

/// Throws std::runtime_error when a stage's input is missing from RUN_DIR and no listed
/// stage produces it (e.g. stages = ["evaluate"] in an empty folder).
void require_stage_inputs(const config::RunConfig& config, const config::RunLayout& run);

/// A stage's input: the stage that produces it and its path.
using StageInput = std::pair<std::string, std::string>;

/// Throws std::runtime_error when a listed stage's input (stage -> StageInput) is missing
/// from RUN_DIR and the stage that produces it is not listed.
void require_produced_inputs(const config::PipelineConfig& pipeline,
                             const std::multimap<std::string, StageInput>& inputs);

/// Throws std::runtime_error naming the file and the settings that differ when data.h5,
/// a checkpoint or root.h5 in RUN_DIR was made by another configuration, or when data.h5
/// is not a byte-for-byte copy of run.data: they are expensive, and reusing or overwriting
/// another configuration's would be silent harm.
void refuse_foreign_outputs(const config::RunConfig& config, const config::RunLayout& run);

/// Throws std::runtime_error naming `copy` when it is not a byte-for-byte copy of
/// run.data = `source`.
void refuse_other_copy(const std::string& copy, const std::string& source);

/// Throws std::runtime_error naming `path` and the settings that differ when the
/// configuration stored there (`stored`) differs from `current` in `sections`.
void refuse_if_foreign(const std::string& path, const std::string& stored,
                       const std::string& current, const std::vector<std::string>& sections);

}  // namespace bhpm::cli
