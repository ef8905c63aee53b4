#pragma once
/// `bhpm train` and `bhpm evaluate` for a field system (docs/systems.md, "Learning a
/// system"): train reads a configuration with a [system] section and the train set of a
/// version 3 dataset and writes RUN_DIR/system.ckpt; evaluate scores each field's root on
/// a set's solution grids and writes the metrics per field; distill fits each field's root
/// samples by sparse regression and writes the equations with their intervals; predict
/// solves a stored experiment's initial fields under the roots' means and samples and
/// scores the band against its solution.

#include "cli/distill_command.h"
#include "cli/evaluate_command.h"
#include "cli/predict_command.h"
#include "cli/training_inputs.h"

namespace bhpm::cli {

/// Whether RUN_DIR holds a field system's model (evaluate then scores it).
bool holds_a_system(const std::string& run_dir);

/// Returns the exit code; errors are thrown to the caller that prints them.
int run_system_training(const TrainingCommandOptions& options);
int run_system_evaluation(const EvaluateOptions& options);
int run_system_distillation(const DistillCommandOptions& options);
int run_system_prediction(const PredictCommandOptions& options);

}  // namespace bhpm::cli
