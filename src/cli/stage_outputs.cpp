#include "cli/stage_outputs.h"

#include <cstdio>
#include <filesystem>

#include "cli/report_command.h"
#include "cli/run_command.h"
#include "config/run_layout.h"
#include "io/atomic_file.h"
#include "util/error_message.h"

namespace bhpm::cli {

namespace fs = std::filesystem;

void announce(const std::string& line) {
  std::printf("== %s\n", line.c_str());
  std::fflush(stdout);
}

TrainingCommandOptions train_stage_options(const RunCommandOptions& options,
                                           const config::RunLayout& run) {
  TrainingCommandOptions train;
  train.config_path = options.config_path;
  train.data_path = run.data();
  train.run_dir = run.dir;
  train.overrides = options.overrides;
  train.quiet = options.quiet;
  return train;
}

void report_stage(const RunCommandOptions& options, const config::RunLayout& run) {
  announce("report -> " + run.report());
  ReportCommandOptions report;
  report.run_dir = run.dir;
  report.data_path = fs::exists(run.data()) ? run.data() : "";
  report.output_dir = run.report();
  report.quiet = options.quiet;
  run_report(report);
}

void copy_dataset(const std::string& source, const std::string& destination) {
  if (fs::exists(destination))
    return announce("simulate: up to date (" + destination + " is a copy of run.data = " + source +
                    ")");
  announce("simulate: replaced by run.data: copying " + source + " -> " + destination);
  io::AtomicFile copy(destination);
  fs::copy_file(source, copy.temporary_path(), fs::copy_options::overwrite_existing);
  copy.commit();
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
