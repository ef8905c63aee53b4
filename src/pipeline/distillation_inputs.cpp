#include "pipeline/distillation_inputs.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "config/dataset_equation.h"
#include "config/run_layout.h"
#include "eval/point_subset.h"
#include "model/root_export.h"
#include "pde/dataset_file.h"

namespace bhpm::pipeline {

namespace {

/// Folds of the cross-validation when the data hold a single experiment.
constexpr std::int64_t kFoldsWithinOneExperiment = 5;

}  // namespace

DistillPoints distill_points(const std::string& root_file, std::int64_t max_points,
                             std::int64_t dimensions) {
  const at::Tensor inputs = model::read_root_inputs(root_file);  // [N, n_st, D]
  if (inputs.size(2) != dimensions)
    throw std::runtime_error(root_file + ": root_inputs/v has " + std::to_string(inputs.size(2)) +
                             " variables, the trained root " + std::to_string(dimensions));
  const std::int64_t experiments = inputs.size(0), per_experiment = inputs.size(1);
  const std::int64_t total = experiments * per_experiment;
  const at::Tensor keep =
      eval::evenly_spread_subset(total, max_points == 0 ? total : std::min(max_points, total));
  DistillPoints points;
  points.v = inputs.reshape({total, dimensions}).index_select(0, keep);
  points.experiments = experiments;
  if (experiments >= 2) {
    points.fold = at::floor_divide(keep, per_experiment);
    points.folds = experiments;
  } else {
    points.fold = at::arange(keep.size(0), at::kLong).remainder(kFoldsWithinOneExperiment);
    points.folds = kFoldsWithinOneExperiment;
  }
  return points;
}

std::string truth_dataset(const std::string& data_option, const std::string& run_dir) {
  if (!data_option.empty()) return data_option;
  const std::string data = config::RunLayout{run_dir}.data();
  return std::filesystem::exists(data) && !pde::read_dataset_metadata(data).config.empty() ? data
                                                                                           : "";
}

at::Tensor true_operator(const std::string& data, const at::Tensor& v, std::string& description) {
  if (data.empty()) return {};
  const pde::Equation equation = config::read_dataset_equation(data);
  description = equation.describe();
  if (equation.order() >= v.size(1)) {
    std::printf("true operator: %s reads d^%d u/dx^%d, beyond the root's inputs: no truth column\n",
                description.c_str(), equation.order(), equation.order());
    return {};
  }
  return equation.right_hand_side(v.t().unsqueeze(1))[0];
}

}  // namespace bhpm::pipeline
