#pragma once
/// The [distill] section: how `bhpm distill` turns the trained root into an equation
/// (eval/operator_distillation.h; docs/numerics.md, "Distilled equations"). Keys and
/// defaults:
///   samples = 64            S operator samples (>= 2), pathwise (predict.features features)
///   degree = 3              the library's largest total degree of a monomial, in [1, 5]
///   max_points = 4096       root inputs the samples are fitted on, evenly spread over the
///                           training experiments' (0: all)
///   max_unexplained = 0.05  the equation is flagged when it leaves more than this fraction
///                           of the posterior mean's variance unexplained, in (0, 1)
///   resample_experiments = true  each sample is fitted on its own bootstrap resample of the
///                           training experiments (eval/sparse_regression.h), so that the
///                           intervals hold how far the experiments' own leaf errors move the
///                           equation; needs at least 2 experiments (ignored with one)

#include <cstdint>

#include "config/config_reader.h"
#include "eval/operator_distillation.h"

namespace bhpm::config {

struct DistillConfig {
  std::int64_t samples = 64;
  int degree = 3;
  std::int64_t max_points = 4096;
  bool resample_experiments = true;
  eval::DistillOptions options;
};

/// Reads [distill]; throws ConfigError naming the field and the rule.
DistillConfig read_distill_config(ConfigReader& reader);

}  // namespace bhpm::config
