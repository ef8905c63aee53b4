#pragma once
// Shared by the training tests: a default Burgers training set, small leaf options, a small
// three-phase configuration and scratch paths.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "model/bhpm_training.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "pde/dataset_defaults.h"
#include "pde/experiment_set.h"
#include "pde/measured_experiment.h"

namespace bhpm::testing_fixture {

/// Default Burgers experiments (256 modes, [-8, 8] x [0, 10]) with n_st points each.
inline pde::ExperimentSet burgers_set(std::int64_t n_st, double noise,
                                      std::int64_t experiments = 1) {
  const pde::DatasetDefaults d = pde::dataset_defaults("burgers");
  pde::ExperimentSetOptions options;
  options.experiments = experiments;
  options.seed = 3;
  options.initial_condition.gp = {d.ic_amplitude, d.ic_length_scale};
  options.measurements = {n_st, noise};
  options.solve.t_end = d.t_end;
  options.solve.output_dt = 0.1;
  options.solve.stepper.dt = d.dt;
  return pde::simulate_experiment_set(pde::PeriodicGrid(d.x_min, d.x_max, d.modes),
                                      pde::make_equation({}), options);
}

/// The leaves' data of burgers_set(n_st, noise, experiments): every experiment, all points.
inline model::LeafData burgers_leaf_data(std::int64_t n_st, double noise,
                                         std::int64_t experiments) {
  return model::leaf_data_from_measurements(
      pde::measured_experiments(burgers_set(n_st, noise, experiments)), experiments, n_st,
      "burgers");
}

/// Leaves in double arithmetic, so that identities (chunked and whole sums, partitioned
/// objectives, finite-difference gradients) hold to rounding; float32 hidden layers are
/// checked against double ones in tests/nn/sine_mlp_test.cpp and run end to end.
inline model::LeafModelOptions leaf_options(std::int64_t leaves, std::int64_t width = 64) {
  model::LeafModelOptions options;
  options.network.leaves = leaves;
  options.network.width = width;
  options.network.precision = "float64";
  options.network.seed = 5;
  return options;
}

inline double relative_l2(const at::Tensor& predicted, const at::Tensor& truth) {
  return ((predicted - truth).norm() / truth.norm()).item<double>();
}

/// A small three-phase configuration on two Burgers experiments of 256 points, checkpointed
/// in run_dir ("": no checkpoints).
inline model::BhpmTrainingOptions small_training_options(const std::string& run_dir) {
  model::BhpmTrainingOptions o;
  o.leaves = leaf_options(2, 16);
  o.leaves.network.hidden_layers = 2;
  o.leaf_training.iterations = 20;
  o.leaf_training.checkpoint_every = 10;
  o.exact_training.iterations = 10;
  o.exact_training.points = 128;
  o.root.inducing_points = 16;
  o.root.kmeans_iterations = 10;
  o.joint_training.iterations = 12;
  o.joint_training.batch_size = 64;
  o.joint_training.checkpoint_every = 4;
  o.seed = 11;
  if (run_dir.empty()) return o;  // no checkpoints (not "/leaves.ckpt", ...)
  o.leaf_training.checkpoint_path = run_dir + "/leaves.ckpt";
  o.exact_training.checkpoint_path = run_dir + "/exact_gp.ckpt";
  o.joint_training.checkpoint_path = run_dir + "/joint.ckpt";
  return o;
}

/// The two Burgers experiments of 256 noise-free points each that small_training_options fits.
inline const model::LeafData& small_training_data() {
  static const model::LeafData data = model::leaf_data_from_measurements(
      pde::measured_experiments(burgers_set(256, 0.0, 2)), 2, 256, "burgers");
  return data;
}

/// A path in the test's scratch folder, removed first.
inline std::string temp_path(const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  std::filesystem::remove_all(path);
  return path;
}

}  // namespace bhpm::testing_fixture
