#include "cli/sweep_command.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>

#include "cli/child_processes.h"
#include "cli/mpi_job.h"
#include "cli/number_checks.h"
#include "cli/pipeline_checks.h"
#include "cli/process_setup.h"
#include "config/run_layout.h"
#include "eval/metrics_json.h"
#include "eval/sweep_summary.h"
#include "io/atomic_file.h"
#include "report/sweep_figure.h"
#include "util/comma_list.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

struct SweepOptions {
  std::string config_path;
  std::string vary;  ///< "section.key=v1,v2,..."
  std::int64_t repeats = 1;
  std::string output_dir;
  int jobs = 0;  ///< 0: one per core, at most one per member
  std::vector<std::string> overrides;
  bool quiet = false;
};

/// The varied key and its values, from "section.key=v1,v2,...".
struct Variation {
  std::string key;
  std::vector<std::string> values;
};

Variation parse_variation(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw std::invalid_argument("sweep --vary '" + text + "': expected section.key=v1,v2,...");
  Variation variation{text.substr(0, equals), {}};
  std::set<std::string> seen;
  for (const std::string& value : util::split_at_commas(text.substr(equals + 1))) {
    if (value.empty() || !seen.insert(value).second)
      throw std::invalid_argument("sweep --vary " + variation.key +
                                  ": values must be distinct and non-empty (got '" +
                                  text.substr(equals + 1) + "')");
    variation.values.push_back(value);
  }
  if (variation.key == "seed")
    throw std::invalid_argument(
        "sweep --vary seed: repeats already vary the seed (seed + r); use --repeats");
  if (variation.key.rfind("run.", 0) == 0)
    throw std::invalid_argument("sweep --vary " + variation.key +
                                ": [run] chooses a run's stages, not a setting a sweep can study");
  return variation;
}

/// Every member's overrides: the user's, the stages, the varied value and the seed.
std::vector<std::string> member_overrides(const SweepOptions& options, const Variation& variation,
                                          const std::string& value, std::uint64_t seed) {
  std::vector<std::string> overrides = options.overrides;
  overrides.push_back("run.stages=simulate,train,evaluate");
  overrides.push_back(variation.key + "=" + value);
  overrides.push_back("seed=" + std::to_string(seed));
  return overrides;
}

/// The key must be one a configuration reads; reading an unknown one is refused with the
/// keys its section knows.
void require_known_key(const config::RunConfig& config, const Variation& variation) {
  const auto dot = variation.key.rfind('.');
  const std::string section = dot == std::string::npos ? "" : variation.key.substr(0, dot);
  const std::string key = dot == std::string::npos ? variation.key : variation.key.substr(dot + 1);
  const toml::table resolved = toml::parse(config.resolved_toml);
  const toml::table* table = section.empty() ? &resolved : resolved.get_as<toml::table>(section);
  if (!table || !table->contains(key))
    throw std::invalid_argument("sweep --vary " + variation.key + ": unknown configuration key");
}

/// "<key>=<value>" when the value is safe in a file name, else "<key>=value-<i>" (i: its
/// position in --vary), so that a value such as "sin(x)/2" cannot make nested folders.
std::string member_folder(const Variation& variation, const std::string& value) {
  const bool safe = value.find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_") ==
                    std::string::npos;
  if (safe) return variation.key + "=" + value;
  const auto position = std::find(variation.values.begin(), variation.values.end(), value);
  return variation.key + "=value-" + std::to_string(position - variation.values.begin());
}

std::vector<eval::SweepMember> plan_members(const SweepOptions& options, const Variation& variation,
                                            std::uint64_t base_seed) {
  std::vector<eval::SweepMember> members;
  for (const std::string& value : variation.values)
    for (std::int64_t r = 0; r < options.repeats; ++r) {
      eval::SweepMember member;
      member.value = value;
      member.repeat = r;
      member.seed = base_seed + static_cast<std::uint64_t>(r);
      member.run_dir = (fs::path(options.output_dir) / member_folder(variation, value) /
                        ("repeat-" + std::to_string(r)))
                           .string();
      members.push_back(member);
    }
  return members;
}

/// Reads every member's configuration before any starts: a bad value, an unknown key or
/// a missing section is refused here, naming the value.
std::uint64_t check_members(const SweepOptions& options, const Variation& variation) {
  const config::RunConfig base =
      read_pipeline_configuration(options.config_path, options.overrides);
  require_known_key(base, variation);
  for (const std::string& value : variation.values) {
    try {
      read_pipeline_configuration(options.config_path,
                                  member_overrides(options, variation, value, base.simulate.seed));
    } catch (const std::exception& error) {
      throw std::invalid_argument("sweep --vary " + variation.key + "=" + value + ": " +
                                  error.what());
    }
  }
  return base.simulate.seed;
}

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

/// The member's held-out scores; a member whose RMSE or MNLP is not a number (a NaN
/// written as null) counts as failed, so that it cannot poison the means.
void read_member_metrics(eval::SweepMember& member) {
  const std::string path = config::RunLayout{member.run_dir}.held_out_metrics();
  const eval::OperatorScores scores = eval::read_operator_scores(path);
  if (!std::isfinite(scores.rmse) || !std::isfinite(scores.mean_nlpd))
    throw std::runtime_error(path + ": rmse or mean_nlpd is not a finite number");
  member.rmse = scores.rmse;
  member.mean_nlpd = scores.mean_nlpd;
  member.median_nlpd = scores.median_nlpd;
  member.coverage_95 = scores.coverage95;
  member.finished = true;
}

void write_sweep_definition(const SweepOptions& options, const Variation& variation,
                            std::uint64_t base_seed) {
  nlohmann::json definition = {
      {"config", options.config_path}, {"key", variation.key}, {"values", variation.values},
      {"repeats", options.repeats},    {"seed", base_seed},    {"overrides", options.overrides}};
  io::write_text_atomically((fs::path(options.output_dir) / "sweep.json").string(),
                            definition.dump(2) + "\n");
}

/// Records how a member's run ended: its held-out scores, or why it has none. `where` is
/// "" alone, " on rank r" in an MPI job.
void settle_member(eval::SweepMember& member, int exit_code, const std::string& log_path,
                   const std::string& where) {
  if (exit_code != 0) {
    member.failure = "exit code " + std::to_string(exit_code) + where + ", see " + log_path;
    return;
  }
  try {
    read_member_metrics(member);
  } catch (const std::exception& error) {
    member.failure = error.what() + where;
  }
}

void print_member(const eval::SweepMember& member, const Variation& variation) {
  const std::string outcome = member.finished ? "RMSE " + std::to_string(member.rmse) + ", MNLP " +
                                                    std::to_string(member.mean_nlpd)
                                              : member.failure;
  std::printf("%s %s=%s repeat %lld: %s\n", member.finished ? "done" : "FAILED",
              variation.key.c_str(), member.value.c_str(), static_cast<long long>(member.repeat),
              outcome.c_str());
  std::fflush(stdout);
}

/// sweep-members.csv, sweep-summary.csv, sweep.txt and (when a member finished) sweep.png.
void write_sweep_results(const SweepOptions& options, const Variation& variation,
                         const std::vector<eval::SweepMember>& members) {
  const std::vector<eval::SweepRow> rows = eval::summarize_sweep(members, variation.values);
  const fs::path dir(options.output_dir);
  const std::string table = eval::sweep_table(variation.key, rows);
  io::write_text_atomically((dir / "sweep-members.csv").string(),
                            eval::sweep_members_csv(variation.key, members));
  io::write_text_atomically((dir / "sweep-summary.csv").string(),
                            eval::sweep_summary_csv(variation.key, rows));
  io::write_text_atomically((dir / "sweep.txt").string(), table);
  std::printf("%s", table.c_str());
  if (std::any_of(members.begin(), members.end(), [](const auto& m) { return m.finished; }))
    std::printf("figure: %s\n",
                report::draw_sweep_figure(options.output_dir, variation.key, rows).c_str());
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
  std::fprintf(stderr, "error: sweep: %lld of %zu runs failed (listed above)\n",
               static_cast<long long>(failures), members.size());
  return 1;
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
  command->add_option(
      "--set", options->overrides,
      "Override a configuration value for every run: section.key=value (repeatable)");
  command->add_flag("-q,--quiet", options->quiet, "Print only failures and the table");
  command->callback([options] { throw CLI::RuntimeError(run_sweep(*options)); });
}

}  // namespace bhpm::cli
