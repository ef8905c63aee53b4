#pragma once
/// The stages of `bhpm run` (config/pipeline_config.h): simulate (or copy run.data), train,
/// calibrate, evaluate, distill, predict, refinement and report, each a call of its
/// subcommand with the run's configuration and files, skipped with "up to date" when its
/// outputs exist, are newer than their inputs, read back whole and were made by the same
/// settings (a damaged output is made again, said once).

#include <functional>
#include <map>
#include <string>

#include "cli/run_command.h"
#include "config/run_config.h"
#include "config/run_layout.h"

namespace bhpm::cli {

/// What every stage reads: the command's options, the resolved configuration, the files.
struct Pipeline {
  const RunCommandOptions& options;
  const config::RunConfig& config;
  config::RunLayout run;
};

/// True when the run's dataset holds solution grids (simulate's version 1 files): the
/// calibrate stage, the training grids' scores and predictions with a truth need them; a
/// dataset of measurements only (version 2) has none.
bool has_solution_grids(const Pipeline& p);

/// Stage name -> what runs it.
const std::map<std::string, std::function<void(const Pipeline&)>>& stage_runners();

}  // namespace bhpm::cli
