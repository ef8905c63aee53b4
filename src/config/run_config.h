#pragma once
/// One configuration file describes a whole experiment (data, leaves, training); every
/// subcommand reads all of it, so a key unknown to every stage is an error wherever it is
/// used, and the resolved text stored in outputs is the same for every stage.

#include <set>
#include <string>
#include <vector>

#include "config/compute_config.h"
#include "config/distill_config.h"
#include "config/leaf_config.h"
#include "config/pipeline_config.h"
#include "config/predict_config.h"
#include "config/refinement_study_config.h"
#include "config/root_config.h"
#include "config/simulate_config.h"
#include "model/bhpm_training.h"

namespace bhpm::config {

struct RunConfig {
  SimulateConfig simulate;
  LeafConfig leaves;
  RootConfig root;
  PredictConfig predict;
  DistillConfig distill;                           ///< [distill]: `bhpm distill`
  ComputeConfig compute;                           ///< [compute]: the device
  PipelineConfig pipeline;                         ///< [run]: the stages of `bhpm run`
  solve::RefinementStudyOptions refinement_study;  ///< [refinement_study]: the Fig. 3 stage
  std::set<std::string> given_sections;            ///< sections present before defaults
  std::string resolved_toml;                       ///< every value read, defaults included
  /// "run.data" -> how messages name it: "--set run.data" or "<file>: run.data".
  util::FieldNames field = util::section_fields("");
};

/// Reads `path` with "section.key=value" overrides applied; throws ConfigError naming the
/// file, the field and the rule.
RunConfig read_run_config(const std::string& path, const std::vector<std::string>& overrides);

/// The same from configuration text (e.g. the resolved text stored in a checkpoint);
/// `source` names it in errors, relative paths are taken from `base_dir`.
RunConfig read_run_config_text(const std::string& text, const std::string& source,
                               const std::string& base_dir,
                               const std::vector<std::string>& overrides);

/// The three-phase training options of `config` for N = `experiments` leaves, with
/// checkpoints in `run_dir` ("" = none), the configuration's seed and resolved text.
model::BhpmTrainingOptions bhpm_training_options(const RunConfig& config, std::int64_t experiments,
                                                 const std::string& run_dir);

}  // namespace bhpm::config
