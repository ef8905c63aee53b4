#pragma once
/// When a stage of `bhpm run` counts as done: its output reads back whole and stores the
/// run's settings; and the one line a stage says of what it does.

#include <functional>
#include <string>
#include <vector>

#include "cli/pipeline_stages.h"

namespace bhpm::cli {

/// "== <line>" on stdout, flushed.
void announce(const std::string& line);

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
