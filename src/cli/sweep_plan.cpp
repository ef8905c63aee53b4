#include "cli/sweep_plan.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <utility>

#include "cli/pipeline_checks.h"
#include "config/system_config.h"
#include "util/comma_list.h"

namespace bhpm::cli {

namespace {

namespace fs = std::filesystem;

/// The key must be one a configuration reads (`resolved_toml` holds every key read); an
/// unknown one is refused.
void require_known_key(const std::string& resolved_toml, const Variation& variation) {
  const auto dot = variation.key.rfind('.');
  const std::string section = dot == std::string::npos ? "" : variation.key.substr(0, dot);
  const std::string key = dot == std::string::npos ? variation.key : variation.key.substr(dot + 1);
  const toml::table resolved = toml::parse(resolved_toml);
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

}  // namespace

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

/// A configuration as `bhpm run` reads it, one field's or a system's (which the members
/// simulate, so its equations must be known): its resolved TOML and its seed.
std::pair<std::string, std::uint64_t> read_member_configuration(
    const std::string& path, const std::vector<std::string>& overrides) {
  if (config::configures_a_system(path, overrides)) {
    const config::SystemConfig system = config::read_system_config(path, overrides);
    config::require_equations(system);
    return {system.resolved_toml, system.sets.seed};
  }
  const config::RunConfig run = read_pipeline_configuration(path, overrides);
  return {run.resolved_toml, run.simulate.seed};
}

/// Reads every member's configuration before any starts: a bad value, an unknown key or
/// a missing section is refused here, naming the value.
std::uint64_t check_members(const SweepOptions& options, const Variation& variation) {
  const auto [resolved, seed] = read_member_configuration(options.config_path, options.overrides);
  require_known_key(resolved, variation);
  for (const std::string& value : variation.values) {
    try {
      read_member_configuration(options.config_path,
                                member_overrides(options, variation, value, seed));
    } catch (const std::exception& error) {
      throw std::invalid_argument("sweep --vary " + variation.key + "=" + value + ": " +
                                  error.what());
    }
  }
  return seed;
}

}  // namespace bhpm::cli
