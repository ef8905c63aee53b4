#pragma once
/// The configuration of the root GP and of phases 2 and 3 of training, read strictly:
///   [root]         order, inducing_points, train_inducing_inputs, kmeans_iterations,
///                  kernel, input_noise (model/root_gp.h, gp/kernel_table.h)
///   [train_root]   iterations, learning_rate, final_learning_rate, points,
///                  checkpoint_every (phase 2, model/exact_root_training.h)
///   [train_joint]  iterations, learning_rate, final_learning_rate, batch_size,
///                  checkpoint_every (phase 3, model/joint_training.h)
/// Defaults are the paper's (appendix B): K = 2, 128 inducing inputs; 2000 Adam steps at
/// 1e-2 on at most 1024 root rows; 5e4 joint steps at 1e-3, no minibatches.

#include "config/config_reader.h"
#include "model/exact_root_training.h"
#include "model/joint_training.h"
#include "model/root_gp.h"

namespace bhpm::config {

struct RootConfig {
  model::RootOptions root;
  model::ExactRootTrainingOptions exact_training;  ///< checkpoint_path, config set by the caller
  model::JointTrainingOptions joint_training;      ///< checkpoint_path, seed, config likewise
};

/// Reads [root], [train_root] and [train_joint]; throws ConfigError naming the field.
RootConfig read_root_config(ConfigReader& reader);

/// Reads order and kernel of a [root] section into `options` (its values are the defaults);
/// model::validate(RootOptions) checks them.
void read_order_and_kernel(ConfigSection& root, model::RootOptions& options);

/// Reads iterations, learning_rate and final_learning_rate of a training section into
/// `schedule` (its values are the defaults); the owner's validate() checks them.
void read_adam_steps(ConfigSection& section, model::AdamSchedule& schedule);

/// Reads iterations, learning_rate, final_learning_rate and checkpoint_every of a
/// training section into `schedule` (its values are the defaults); the owner's validate()
/// checks them.
void read_schedule(ConfigSection& section, model::AdamSchedule& schedule);

}  // namespace bhpm::config
