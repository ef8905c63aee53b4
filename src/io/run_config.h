#pragma once
/// One configuration file describes a whole experiment (data, leaves, training); every
/// subcommand reads all of it, so a key unknown to every stage is an error wherever it is
/// used, and the resolved text stored in outputs is the same for every stage.

#include <string>
#include <vector>

#include "io/leaf_config.h"
#include "io/simulate_config.h"

namespace bhpm::io {

struct RunConfig {
  SimulateConfig simulate;
  LeafConfig leaves;
  std::string resolved_toml;  ///< every value read, defaults included
};

/// Reads `path` with "section.key=value" overrides applied; throws ConfigError naming the
/// file, the field and the rule.
RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides);

}  // namespace bhpm::io
