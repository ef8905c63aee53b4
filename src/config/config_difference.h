#pragma once
/// Which settings two resolved configurations disagree on: how `bhpm run` decides whether
/// a stage's stored output was made by the configuration it is asked to run.

#include <string>
#include <vector>

namespace bhpm::config {

/// The keys of `sections` ("" = the top-level keys; "section.key" = that key alone) whose
/// values differ between the resolved TOML texts `stored` and `current`, as "section.key =
/// <stored> there, <current> here" (a key absent on one side reads "(absent)"). Empty when
/// they agree.
/// Throws ConfigError if either text is not TOML (`stored_source` names the stored one).
std::vector<std::string> config_differences(const std::string& stored,
                                            const std::string& stored_source,
                                            const std::string& current,
                                            const std::vector<std::string>& sections);

}  // namespace bhpm::config
