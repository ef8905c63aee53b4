#pragma once
/// What `bhpm sweep` writes into its folder: sweep.json (the sweep's definition), each
/// member's outcome read from its run folder, and the tables and figure of the results.

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sweep_plan.h"
#include "eval/sweep_summary.h"

namespace bhpm::cli {

/// DIR/sweep.json: the configuration, the varied key and values, repeats, seed and overrides.
void write_sweep_definition(const SweepOptions& options, const Variation& variation,
                            std::uint64_t base_seed);

/// Records how a member's run ended: its held-out scores, or why it has none. `where` is
/// "" alone, " on rank r" in an MPI job.
void settle_member(eval::SweepMember& member, int exit_code, const std::string& log_path,
                   const std::string& where);

/// sweep-members.csv, sweep-summary.csv, sweep.txt and (when a member finished) sweep.png.
void write_sweep_results(const SweepOptions& options, const Variation& variation,
                         const std::vector<eval::SweepMember>& members);

}  // namespace bhpm::cli
