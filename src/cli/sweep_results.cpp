#include "cli/sweep_results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "config/run_layout.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "report/sweep_figure.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

/// The member's held-out scores (a system's pooled over its fields); a member whose RMSE
/// or MNLP is not a number (a NaN written as null) counts as failed, so that it cannot
/// poison the means.
void read_member_metrics(eval::SweepMember& member) {
  const std::string path = config::RunLayout{member.run_dir}.held_out_metrics();
  const eval::OperatorScores scores = eval::read_pooled_operator_scores(path);
  if (!std::isfinite(scores.rmse) || !std::isfinite(scores.mean_nlpd))
    throw std::runtime_error(path + ": rmse or mean_nlpd is not a finite number");
  member.rmse = scores.rmse;
  member.mean_nlpd = scores.mean_nlpd;
  member.median_nlpd = scores.median_nlpd;
  member.coverage_95 = scores.coverage95;
  member.finished = true;
}

}  // namespace

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

}  // namespace bhpm::cli
