#pragma once
/// What a system's configuration says about learning (docs/systems.md, "Learning a system"),
/// read strictly with the one-field keys' names and rules:
///   [leaves]        hidden_layers, width, first_omega, hidden_omega, initialization,
///                   precision, initial_noise (as config/leaf_config.h)
///   [train_leaves]  iterations, learning_rate, final_learning_rate, batch_size
///   [root]          order, kernel (one exact GP per field, model/system_roots.h)
///   [train_root]    iterations, learning_rate, final_learning_rate, points,
///                   condition_points
///   [distill]       samples, degree, max_points, resample_experiments, max_unexplained,
///                   weak_form, weak_space_factors, weak_time_factor, weak_grid (as
///                   config/distill_config.h, but max_points: that many points drawn
///                   uniformly in the leaves' boxes, or 0 (the default) the roots' own rows,
///                   where their posteriors are informed; and weak_grid on a plane: the
///                   points along x and along y each, [64, 32] by default)
///   [predict]       samples (members, >= 1, default 16), features (random features of each
///                   pathwise sample, >= 1, default 1024), step_tolerance (the solves'
///                   step-doubling tolerance in [0, 1); default 0: fixed steps of solver.dt),
///                   max_amplification (> 1, default 10: the growth along u0 beyond which a
///                   member is repaired by added diffusion, pde/system_well_posedness.h),
///                   operator ("gp" (default): the roots' samples; "distilled" or
///                   "weak-form": distill.json's equations, pipeline/system_equation_operators.h)
/// The one-field keys a system does not use yet (inducing points, input noise, the joint
/// phase, checkpoints, early stopping) are unknown keys here, refused by the reader.

#include <string>

#include "config/config_reader.h"
#include "config/distill_config.h"
#include "model/exact_root_training.h"
#include "model/leaf_model.h"
#include "model/system_leaves.h"

namespace bhpm::config {

/// What `bhpm predict` solves with (pipeline/system_prediction.h).
struct SystemPredictConfig {
  std::int64_t samples = 16;
  std::int64_t features = 1024;
  double step_tolerance = 0.0;
  double max_amplification = 10.0;
  std::string operator_source = "gp";  ///< one of config::operator_sources()
};

struct SystemLearningConfig {
  model::LeafModelOptions leaves;  ///< network.leaves, space_dimensions, outputs by the caller
  model::SystemLeafTrainingOptions leaf_training;
  int order = 2;               ///< K: every field's partials of order <= K enter the roots
  std::string kernel = "rbf";  ///< one of gp::kernel_names()
  model::ExactRootTrainingOptions root_training;  ///< points: rows the hyperparameters fit
  std::int64_t condition_points = 4096;  ///< rows the roots' posteriors condition on (>= points)
  DistillConfig distill;
  SystemPredictConfig predict;
};

/// distill.weak_grid's default for a system on a plane: [points along x and along y, times].
inline constexpr std::int64_t kPlaneWeakGrid[2] = {64, 32};

/// Reads the six sections of a system in `dimensions` (1 or 2) space dimensions; throws
/// ConfigError naming the field and the rule.
SystemLearningConfig read_system_learning_config(ConfigReader& reader, int dimensions);

}  // namespace bhpm::config
