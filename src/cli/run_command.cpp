#include "cli/run_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>

#include "cli/pipeline_checks.h"
#include "cli/pipeline_stages.h"
#include "cli/process_setup.h"
#include "cli/run_log.h"
#include "cli/setting_flags.h"
#include "cli/system_run.h"
#include "config/run_config.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "util/device.h"
#include "util/error_message.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

void write_resolved_configuration(const config::RunLayout& run, const std::string& text) {
  io::write_text_atomically(run.config(), text);
}

}  // namespace

void setup_run(CLI::App& app) {
  auto options = std::make_shared<RunCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "run", "The whole job: simulate, train, evaluate, predict, report (resumes in RUN_DIR)");
  command->add_option("config", options->config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->run_dir, "Run folder (created if missing)")
      ->required();
  add_override_option(*command, options->overrides,
                      "Override a configuration value: section.key=value (repeatable)");
  add_setting_flag(*command, options->overrides, "--device", "compute.device",
                   "Where the train, evaluate and predict stages compute: cpu, cuda or cuda:N");
  command
      ->add_option(
          "--threads", options->threads,
          "Threads per stage (default: OMP_NUM_THREADS, else the CPUs this process may run on)")
      ->check(CLI::Range(1, kMaxThreads));
  command->add_flag("-q,--quiet", options->quiet, "No progress, only each stage's summary");
  command->callback([options] { throw CLI::RuntimeError(run_pipeline(*options)); });
}

namespace {

/// The command line as a user would type it, for run.log's header.
std::string command_line(const RunCommandOptions& options) {
  std::string line = "bhpm run " + options.config_path + " -o " + options.run_dir;
  for (const std::string& setting : options.overrides) line += " --set " + setting;
  if (options.threads > 0) line += " --threads " + std::to_string(options.threads);
  return line + (options.quiet ? " -q" : "");
}

/// Each stage in order, its time printed after it.
void run_stages(const std::vector<std::string>& stages,
                const std::function<void(const std::string&)>& run_stage) {
  for (const std::string& stage : stages) {
    const util::Stopwatch stage_stopwatch;
    run_stage(stage);
    std::printf("== %s: %.1f s\n", stage.c_str(), stage_stopwatch.seconds());
  }
}

/// The run in its folder: `check` (what the folder holds) under the folder's lock before
/// anything is written, then the resolved configuration to run.toml and `run` logged to
/// run.log.
int run_in_folder(const RunCommandOptions& options, const std::string& resolved_toml,
                  const std::function<void(const config::RunLayout&)>& check,
                  const std::function<void(const config::RunLayout&)>& run) {
  const util::Stopwatch stopwatch;
  const config::RunLayout layout{options.run_dir};
  // Locked before its files are read (a folder that does not exist yet: once it is made).
  const io::FolderLock existing(options.run_dir, io::FolderLock::Mode::exclusive,
                                command_line(options));
  check(layout);
  fs::create_directories(options.run_dir);
  const io::FolderLock made(options.run_dir, io::FolderLock::Mode::exclusive,
                            command_line(options));
  write_resolved_configuration(layout, resolved_toml);
  if (options.threads > 0) limit_threads(options.threads);  // else `bhpm --threads` or none
  RunLog log(layout.log(), command_line(options));
  try {
    run(layout);
  } catch (const std::exception& error) {
    log.write_to_log_only("error: " + util::error_message(error) + "\n");
    throw;
  }
  std::printf("run: %s complete (%.1f s)\n", options.run_dir.c_str(), stopwatch.seconds());
  return 0;
}

/// A field system's run (cli/system_run.h).
int run_system_pipeline(const RunCommandOptions& options) {
  const config::SystemConfig config =
      config::read_system_config(options.config_path, options.overrides);
  return run_in_folder(
      options, config.resolved_toml,
      [&](const config::RunLayout& run) { check_system_run(config, run, options.config_path); },
      [&](const config::RunLayout& run) {
        run_stages(config.pipeline.stages, [&](const std::string& stage) {
          run_system_stage(stage, options, config, run);
        });
      });
}

}  // namespace

int run_pipeline(const RunCommandOptions& options) {
  if (config::configures_a_system(options.config_path, options.overrides))
    return run_system_pipeline(options);
  const config::RunConfig config =
      read_pipeline_configuration(options.config_path, options.overrides);
  return run_in_folder(
      options, config.resolved_toml,
      [&](const config::RunLayout& run) {
        require_stage_inputs(config, run);
        refuse_foreign_outputs(config, run);
        util::require_available(config.compute.device, "compute.device");
      },
      [&](const config::RunLayout& run) {
        const Pipeline pipeline{options, config, run};
        run_stages(config.pipeline.stages,
                   [&](const std::string& stage) { stage_runners().at(stage)(pipeline); });
      });
}

}  // namespace bhpm::cli
