#include "cli/stage_outputs.h"

#include <cstdio>
#include <filesystem>

#include "config/run_layout.h"
#include "util/error_message.h"

namespace bhpm::cli {

namespace fs = std::filesystem;

void announce(const std::string& line) {
  std::printf("== %s\n", line.c_str());
  std::fflush(stdout);
}

/// Whether `output` reads back whole (`read` does not throw): a file damaged after it was
/// written (truncated by a full disk, edited by hand) is made again, said once, instead of
/// being taken as up to date or stopping the run.
bool reads_back(const std::string& output, const std::function<void()>& read) {
  try {
    read();
    return true;
  } catch (const std::exception& error) {
    announce(output + " does not read back (" + util::error_message(error) + "): made again");
    return false;
  }
}

/// Whether `output` reads back and the configuration it stores (`stored`) agrees with this
/// run's in `sections`.
bool same_settings(const Pipeline& p, const std::string& output,
                   const std::function<std::string()>& stored,
                   const std::vector<std::string>& sections) {
  std::string config;
  return reads_back(output, [&] { config = stored(); }) &&
         config::stored_differences(output, config, p.config.resolved_toml, sections).empty();
}

}  // namespace bhpm::cli
