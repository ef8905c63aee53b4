#pragma once
// Shared by the training tests: a default Burgers training set, small leaf options and
// scratch paths.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "model/leaf_model.h"
#include "pde/dataset_defaults.h"
#include "pde/experiment_set.h"

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

inline model::LeafModelOptions leaf_options(std::int64_t leaves, std::int64_t width = 64) {
  model::LeafModelOptions options;
  options.network.leaves = leaves;
  options.network.width = width;
  options.network.seed = 5;
  return options;
}

inline double relative_l2(const at::Tensor& predicted, const at::Tensor& truth) {
  return ((predicted - truth).norm() / truth.norm()).item<double>();
}

/// A path in the test's scratch folder, removed first.
inline std::string temp_path(const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  std::filesystem::remove_all(path);
  return path;
}

}  // namespace bhpm::testing_fixture
