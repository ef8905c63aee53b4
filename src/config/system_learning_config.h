#pragma once
/// What a system's configuration says about learning (docs/systems.md, "Learning a system"),
/// read strictly with the one-field keys' names and rules:
///   [leaves]        hidden_layers, width, first_omega, hidden_omega, initialization,
///                   precision, initial_noise (as config/leaf_config.h)
///   [train_leaves]  iterations, learning_rate, final_learning_rate, batch_size
///   [root]          order, kernel (one exact GP per field, model/system_roots.h)
///   [train_root]    iterations, learning_rate, final_learning_rate, points
/// The one-field keys a system does not use yet (inducing points, input noise, the joint
/// phase, checkpoints, early stopping) are unknown keys here, refused by the reader.

#include <string>

#include "config/config_reader.h"
#include "model/exact_root_training.h"
#include "model/leaf_model.h"
#include "model/system_leaves.h"

namespace bhpm::config {

struct SystemLearningConfig {
  model::LeafModelOptions leaves;  ///< network.leaves, space_dimensions, outputs by the caller
  model::SystemLeafTrainingOptions leaf_training;
  int order = 2;               ///< K: every field's partials of order <= K enter the roots
  std::string kernel = "rbf";  ///< one of gp::kernel_names()
  model::ExactRootTrainingOptions root_training;  ///< points: root rows (a random subset)
};

/// Reads the four sections; throws ConfigError naming the field and the rule.
SystemLearningConfig read_system_learning_config(ConfigReader& reader);

}  // namespace bhpm::config
