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
///   data = ""  a dataset to learn from instead of simulating (`bhpm import`'s or
///              `bhpm simulate`'s file, relative to the configuration file's folder): the
///              simulate stage copies it into the run folder
///   predict_ic_files = []
///              initial conditions sampled at points (CSV with columns x and u, as
///              `bhpm predict --ic-file`, relative to the configuration file's folder)
///              that the predict stage solves too: prediction-<file stem>.h5, no truth

#include <cstdint>
#include <string>
#include <vector>

#include "config/config_reader.h"

namespace bhpm::config {

/// Every stage name, in the order `bhpm run` performs them.
const std::vector<std::string>& pipeline_stages();

/// The stages of a field system's run (config/system_config.h), in their order: simulate,
/// train, calibrate, evaluate, distill, predict, report (no refinement: docs/systems.md).
const std::vector<std::string>& system_pipeline_stages();

struct PipelineConfig {
  std::vector<std::string> stages;                ///< a subset of pipeline_stages(), in its order
  std::vector<std::int64_t> predict_experiments;  ///< test-set indices, >= 0, distinct
  std::string
      data;  ///< "" = simulate; else the dataset's path (made absolute or base_dir-relative)
  std::vector<std::string> predict_ic_files;  ///< CSV paths, distinct file stems

  bool runs(const std::string& stage) const;
};

/// Reads [run]; relative paths are taken from `base_dir` (the configuration file's folder).
/// Throws ConfigError naming the field and the rule (an unknown or repeated stage, a
/// negative or repeated experiment index, two initial-condition files of one stem).
PipelineConfig read_pipeline_config(ConfigReader& reader, const std::string& base_dir);

/// Reads a field system's [run]: the keys and rules above, the stages among
/// system_pipeline_stages() and all of them by default.
PipelineConfig read_system_pipeline_config(ConfigReader& reader, const std::string& base_dir);

}  // namespace bhpm::config
