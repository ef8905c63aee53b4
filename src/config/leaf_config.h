#pragma once
/// The configuration of the leaves and of phase 1 of training, read strictly from TOML:
///   [leaves]        hidden_layers, width, first_omega, hidden_omega, initialization,
///                   precision, initial_noise (architecture, nn/sine_mlp.h)
///   [train_leaves]  iterations, learning_rate, final_learning_rate, batch_size,
///                   checkpoint_every (schedule, model/leaf_training.h)
/// Defaults are the paper's (appendix B): 6 x 64 sine layers, 1e4 Adam steps at 1e-3,
/// no minibatches.

#include "config/config_reader.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"

namespace bhpm::config {

struct LeafConfig {
  model::LeafModelOptions model;        ///< model.network.leaves is set by the caller (N)
  model::LeafTrainingOptions training;  ///< checkpoint_path, seed, config set by the caller
};

/// Reads [leaves] (the architecture and initial_noise); throws ConfigError naming the field.
model::LeafModelOptions read_leaf_model(ConfigReader& reader);

/// Reads [leaves] and [train_leaves]; throws ConfigError naming the field.
LeafConfig read_leaf_config(ConfigReader& reader);

}  // namespace bhpm::config
