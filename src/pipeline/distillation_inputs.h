#pragma once
/// What `bhpm distill` fits and compares with: the root inputs of the training experiments
/// (root.h5) with their cross-validation folds, and the true operator at them when the
/// run's dataset stores its equation (a simulation's).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace bhpm::pipeline {

/// The points the samples are fitted on: root inputs of the training experiments.
struct DistillPoints {
  at::Tensor v;     ///< [P, D]
  at::Tensor fold;  ///< [P] int64: the experiment of the row (or row mod 5 for one experiment)
  std::int64_t experiments = 0;
  std::int64_t folds = 0;
};

/// At most `max_points` (0: all) evenly spread root inputs of `root_file`; throws
/// std::runtime_error when they do not have the trained root's `dimensions` variables.
DistillPoints distill_points(const std::string& root_file, std::int64_t max_points,
                             std::int64_t dimensions);

/// The dataset whose stored equation gives the truth column: `data_option` (distill's
/// --data) when given, else RUN_DIR/data.h5 when it exists and knows its equation (a
/// simulation's), else "" (none).
std::string truth_dataset(const std::string& data_option, const std::string& run_dir);

/// The true operator at v [P, D] when the dataset's equation reads no derivative beyond
/// the root's inputs; undefined (with a line saying why) otherwise.
at::Tensor true_operator(const std::string& data, const at::Tensor& v, std::string& description);

}  // namespace bhpm::pipeline
