#pragma once
/// What the stages of `bhpm run` share (cli/pipeline_stages.h, cli/system_run.h): when a
/// stage counts as done (its output reads back whole and stores the run's settings), the
/// one line a stage says of what it does, the train stage's options, the report stage and
/// run.data's copy.

#include <functional>
#include <string>
#include <vector>

#include "cli/pipeline_stages.h"
#include "cli/training_inputs.h"

namespace bhpm::cli {

/// "== <line>" on stdout, flushed.
void announce(const std::string& line);

/// `bhpm train`'s options in a run's train stage: the run's configuration file, overrides
/// and quietness, RUN_DIR's data.h5 and RUN_DIR.
TrainingCommandOptions train_stage_options(const RunCommandOptions& options,
                                           const config::RunLayout& run);

/// The report stage: `bhpm report` on RUN_DIR into RUN_DIR/report, with its data.h5 when
/// there is one.
void report_stage(const RunCommandOptions& options, const config::RunLayout& run);

/// run.data (`source`) copied to the run folder's `destination` atomically, unless it is
/// there (pipeline_checks.h and system_run.h refuse a copy that differs).
void copy_dataset(const std::string& source, const std::string& destination);

/// Whether `output` reads back whole (`read` does not throw): a file damaged after it was
/// written (truncated by a full disk, edited by hand) is made again, said once, instead of
/// being taken as up to date or stopping the run.
bool reads_back(const std::string& output, const std::function<void()>& read);

/// Whether `output` reads back and the configuration it stores (`stored`) agrees with this
/// run's in `sections`.
bool same_settings(const Pipeline& p, const std::string& output,
                   const std::function<std::string()>& stored,
                   const std::vector<std::string>& sections);

}  // namespace bhpm::cli
