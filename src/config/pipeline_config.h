#pragma once
/// The [run] section: which stages `bhpm run` performs, in this fixed order, and what the
/// predict stage predicts. Keys and defaults:
///   stages = ["simulate", "train", "evaluate", "predict", "report"]
///              any of those plus "calibrate" (`bhpm calibrate`), "distill" (`bhpm distill`,
///              [distill]) and "refinement" (the Fig. 3 study, [refinement_study]);
///              listed in any order, always run in the order of `pipeline_stages()`
///   predict_experiments = [0]
///              held-out (test set) experiments whose initial conditions the predict
///              stage solves under operator samples; each is compared with its truth

#include <cstdint>
#include <string>
#include <vector>

#include "config/config_reader.h"

namespace bhpm::config {

/// Every stage name, in the order `bhpm run` performs them.
const std::vector<std::string>& pipeline_stages();

struct PipelineConfig {
  std::vector<std::string> stages;                ///< a subset of pipeline_stages(), in its order
  std::vector<std::int64_t> predict_experiments;  ///< test-set indices, >= 0, distinct

  bool runs(const std::string& stage) const;
};

/// Reads [run]; throws ConfigError naming the field and the rule (an unknown or repeated
/// stage, a negative or repeated experiment index).
PipelineConfig read_pipeline_config(ConfigReader& reader);

}  // namespace bhpm::config
