#include "cli/sweep_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "cli/child_processes.h"
#include "cli/mpi_job.h"
#include "cli/number_checks.h"
#include "cli/pipeline_checks.h"
#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "cli/sweep_plan.h"
#include "cli/sweep_results.h"
#include "config/run_layout.h"
#include "eval/sweep_summary.h"
#include "io/atomic_file.h"
#include "util/number_format.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

ChildCommand member_command(const SweepOptions& options, const Variation& variation,
                            const eval::SweepMember& member, int threads) {
  ChildCommand command;
  command.arguments = {own_executable(), "run",       options.config_path,     "-o",
                       member.run_dir,   "--threads", std::to_string(threads), "-q"};
  for (const auto& o : member_overrides(options, variation, member.value, member.seed)) {
    command.arguments.push_back("--set");
    command.arguments.push_back(o);
  }
  command.log_path = config::RunLayout{member.run_dir}.log();
  return command;
}

void print_member(const eval::SweepMember& member, const Variation& variation) {
  const std::string outcome = member.finished
                                  ? "RMSE " + util::format_significant(member.rmse, 6) + ", MNLP " +
                                        util::format_significant(member.mean_nlpd, 6)
                                  : member.failure;
  std::printf("%s %s=%s repeat %lld: %s\n", member.finished ? "done" : "FAILED",
              variation.key.c_str(), member.value.c_str(), static_cast<long long>(member.repeat),
              outcome.c_str());
  std::fflush(stdout);
}

/// The members rank `rank` of `ranks` trains: i = rank, rank + ranks, ...
std::vector<std::size_t> members_of_rank(std::size_t members, int rank, int ranks) {
  std::vector<std::size_t> mine;
  for (std::size_t i = static_cast<std::size_t>(rank); i < members; i += ranks) mine.push_back(i);
  return mine;
}

std::string rank_suffix(const MpiJob& job, std::size_t member) {
  return job.several() ? " on rank " + std::to_string(member % job.size()) : "";
}

/// Trains this rank's members (all of them outside an MPI job), `jobs` at a time, and
/// settles them; returns every member's exit code, -1 for those of other ranks.
std::vector<int> train_members(const SweepOptions& options, const Variation& variation,
                               const MpiJob& job, std::vector<eval::SweepMember>& members) {
  const std::vector<std::size_t> mine = members_of_rank(members.size(), job.rank(), job.size());
  const int cores = default_threads();
  const int jobs =
      std::max<int>(1, std::min<int>(options.jobs > 0 ? options.jobs : cores, mine.size()));
  const int threads = std::max(1, cores / jobs);
  std::vector<ChildCommand> commands;
  for (const std::size_t i : mine) {
    fs::create_directories(members[i].run_dir);
    commands.push_back(member_command(options, variation, members[i], threads));
  }
  if (job.rank() == 0)
    std::printf(
        "sweep: %zu runs (%zu values x %lld repeats)%s, %d at a time with %d thread%s each\n",
        members.size(), variation.values.size(), static_cast<long long>(options.repeats),
        job.several() ? (" over " + std::to_string(job.size()) + " ranks").c_str() : "", jobs,
        threads, threads == 1 ? "" : "s");
  std::fflush(stdout);
  std::vector<int> codes(members.size(), -1);
  run_children(commands, jobs, [&](std::size_t k, int code) {
    eval::SweepMember& member = members[mine[k]];
    codes[mine[k]] = code;
    settle_member(member, code, commands[k].log_path, rank_suffix(job, mine[k]));
    if (!options.quiet || !member.finished) print_member(member, variation);
  });
  return codes;
}

int run_sweep(const SweepOptions& options) {
  const util::Stopwatch stopwatch;
  const Variation variation = parse_variation(options.vary);
  const std::uint64_t base_seed = check_members(options, variation);
  std::vector<eval::SweepMember> members = plan_members(options, variation, base_seed);
  const MpiJob job("sweep");
  std::vector<int> codes;
  try {
    fs::create_directories(options.output_dir);
    if (job.rank() == 0) write_sweep_definition(options, variation, base_seed);
    codes = job.max_on_first_rank(train_members(options, variation, job, members));
  } catch (const std::exception& error) {
    job.abort_if_several(error.what());
    throw;
  }
  const auto failed = [](const auto& m) { return !m.finished; };
  if (job.rank() != 0) {  // rank 0 reports the sweep; the others only their own failures
    for (const std::size_t i : members_of_rank(members.size(), job.rank(), job.size()))
      if (failed(members[i])) return 1;
    return 0;
  }
  for (std::size_t i = 0; i < members.size(); ++i)
    if (i % job.size() != 0)  // another rank's member, trained into the shared folder
      settle_member(members[i], codes[i], config::RunLayout{members[i].run_dir}.log(),
                    rank_suffix(job, i));
  write_sweep_results(options, variation, members);
  std::printf("sweep: %s (%.1f s)\n", options.output_dir.c_str(), stopwatch.seconds());
  const auto failures = std::count_if(members.begin(), members.end(), failed);
  if (failures == 0) return 0;
  throw std::runtime_error("sweep: " + std::to_string(failures) + " of " +
                           std::to_string(members.size()) + " runs failed (listed above)");
}

}  // namespace

void setup_sweep(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Fig. 2 studies: train once per value of a setting (and repeat), compare RMSE and MNLP");
  command->add_option("config", options->config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--vary", options->vary, "section.key=v1,v2,...: the setting and its values")
      ->required();
  command
      ->add_option("--repeats", options->repeats, "Runs per value, with seeds seed, seed + 1, ...")
      ->check(positive());
  command->add_option("-o,--output", options->output_dir, "Sweep folder (created if missing)")
      ->required();
  command
      ->add_option("--jobs", options->jobs, "Runs at a time (per MPI rank; default: one per core)")
      ->check(positive());
  add_override_option(
      *command, options->overrides,
      "Override a configuration value for every run: section.key=value (repeatable)");
  command->add_flag("-q,--quiet", options->quiet, "Print only failures and the table");
  command->callback([options] { throw CLI::RuntimeError(run_sweep(*options)); });
}

}  // namespace bhpm::cli
