#pragma once
/// The [compute] section: where train, evaluate and predict compute (docs/parallel.md,
/// "CUDA"). Keys and defaults:
///   device = "cpu"   "cpu", "cuda" (GPU 0) or "cuda:N"; `--device` on those commands
/// No stage's output depends on it beyond rounding, so `bhpm run` does not redo a stage
/// when only the device changes.

#include <c10/core/Device.h>

#include "config/config_reader.h"

namespace bhpm::config {

struct ComputeConfig {
  c10::Device device{c10::kCPU};
};

/// Reads [compute]; throws ConfigError naming the field and the rule.
ComputeConfig read_compute_config(ConfigReader& reader);

}  // namespace bhpm::config
