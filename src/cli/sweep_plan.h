#pragma once
/// The plan of `bhpm sweep` (cli/sweep_command.h): the varied key and its values, each
/// member's folder, seed and overrides, and the check of every member's configuration
/// before any starts.

#include <cstdint>
#include <string>
#include <vector>

#include "eval/sweep_summary.h"

namespace bhpm::cli {

/// `bhpm sweep`'s command line.
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

/// "section.key=v1,v2,..." -> the variation; throws std::invalid_argument for a malformed
/// text, repeated or empty values, `seed` (repeats vary it) or a [run] key.
Variation parse_variation(const std::string& text);

/// Every member's overrides: the user's, the stages, the varied value and the seed.
std::vector<std::string> member_overrides(const SweepOptions& options, const Variation& variation,
                                          const std::string& value, std::uint64_t seed);

/// Every value x repeat: DIR/<key>=<value>/repeat-<r>/ (a value unsafe in a file name by
/// its position: <key>=value-<i>) with seed base_seed + r.
std::vector<eval::SweepMember> plan_members(const SweepOptions& options, const Variation& variation,
                                            std::uint64_t base_seed);

/// Reads every member's configuration before any starts: a bad value, an unknown key or
/// a missing section is refused here, naming the value.
std::uint64_t check_members(const SweepOptions& options, const Variation& variation);

}  // namespace bhpm::cli
