#pragma once
/// `bhpm train` and `bhpm evaluate` for a field system (docs/systems.md, "Learning a
/// system"): train reads a configuration with a [system] section and the train set of a
/// version 3 or 4 dataset and writes RUN_DIR/system.ckpt; evaluate scores each field's root on
/// a set's solution grids and writes the metrics per field; distill fits each field's root
/// samples by sparse regression and writes the equations with their intervals (predict:
/// cli/system_prediction_command.h).

#include "cli/distill_command.h"
#include "cli/evaluate_command.h"
#include "cli/training_inputs.h"
#include "pde/field_system.h"
#include "pde/system_dataset_file.h"

namespace bhpm::cli {

/// Refuses (std::invalid_argument naming both) a dataset of another system than `source`
/// (a configuration or a run's model) describes: other equations (version 3) or other
/// fields or dimensions (versions 3 and 4).
void require_same_system(const pde::SystemDatasetMetadata& data, const std::string& data_path,
                         const pde::FieldSystem& system, const std::string& source);

/// Throws std::invalid_argument naming the first "section.key=value" of `overrides` outside
/// [section]: a field system's `command` (predict, calibrate, distill) takes the settings of
/// its own step only, the rest having been fixed when the model was trained.
void require_section_settings(const std::vector<std::string>& overrides, const std::string& section,
                              const std::string& command);

/// Whether RUN_DIR holds a field system's model (evaluate then scores it).
bool holds_a_system(const std::string& run_dir);

/// Returns the exit code; errors are thrown to the caller that prints them.
int run_system_training(const TrainingCommandOptions& options);
int run_system_evaluation(const EvaluateOptions& options);
int run_system_distillation(const DistillCommandOptions& options);

}  // namespace bhpm::cli
