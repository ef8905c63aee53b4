#include "pipeline/run_distillation.h"

#include <ATen/ATen.h>

#include <filesystem>
#include <vector>

#include "config/run_layout.h"
#include "model/bhpm_model.h"
#include "model/leaf_data.h"
#include "model/leaf_grid_fields.h"
#include "pde/measured_dataset_file.h"
#include "pde/term_library.h"
#include "util/random.h"

namespace bhpm::pipeline {

std::optional<eval::WeakFormDistillation> training_weak_form(const std::string& run_dir,
                                                             const std::string& windows,
                                                             const TrainedRun& run,
                                                             std::string& why) {
  if (!std::filesystem::exists(windows)) {
    why = "it reads the training experiments' windows from " + windows +
          ", which does not exist (pass the training dataset with --data)";
    return std::nullopt;
  }
  const config::DistillConfig& settings = run.config.distill;
  const std::vector<nn::DomainBox> boxes =
      model::domain_boxes(pde::read_measured_set(windows, "train"));
  const model::LeafModel leaves =
      trained_leaves(run_dir, run.config, static_cast<std::int64_t>(boxes.size()));
  eval::WeakFormOptions options = settings.weak;
  options.regression.seed = util::derive_seed(run.config.predict.options.seed, "distill_weak", 0);
  const auto max_order = static_cast<int>(run.root->kernel()->dimensions()) - 1;
  return eval::fit_weak_form(
      model::leaf_grid_fields(*leaves, boxes, settings.weak_x_points, settings.weak_t_points),
      max_order, settings.degree, options, why);
}

RunDistillation distill_run(const std::string& run_dir, const std::string& data_option,
                            const TrainedRun& run) {
  const config::RunLayout layout{run_dir};
  const config::DistillConfig& settings = run.config.distill;
  const std::int64_t dimensions = run.root->kernel()->dimensions();
  RunDistillation result;
  result.points = distill_points(layout.root(), settings.max_points, dimensions);
  const std::int64_t features = run.config.predict.options.pathwise.features;
  const std::uint64_t seed = util::derive_seed(run.config.predict.options.seed, "distill", 0);
  eval::DistillationInputs inputs = eval::root_distillation_inputs(
      *run.root, result.points.v, result.points.fold, settings.samples, {features, seed});
  const std::string data = truth_dataset(data_option, run_dir);
  inputs.truth = true_operator(data, result.points.v, result.truth);
  if (!inputs.truth.defined()) result.truth.clear();
  eval::DistillOptions options = settings.options;
  options.regression.resample_folds =
      settings.resample_experiments && result.points.experiments >= 2;
  options.regression.seed =
      util::derive_seed(run.config.predict.options.seed, "distill_resample", 0);
  result.pointwise = eval::distill_operator(
      inputs, pde::make_term_library(model::root_variable_names(dimensions), settings.degree),
      options);
  // The training windows come from the run's own dataset, which --data may not be.
  if (settings.weak_form) {
    result.weak_form = training_weak_form(
        run_dir,
        std::filesystem::exists(layout.data()) || data_option.empty() ? layout.data() : data_option,
        run, result.weak_form_missing);
    if (result.weak_form) eval::attach_truth(*result.weak_form, result.pointwise);
  }

  eval::DistillationSettings& record = result.record;
  record.run_dir = run_dir;
  record.data = inputs.truth.defined() ? data : "";
  record.samples = settings.samples;
  record.features = features;
  record.points = result.points.v.size(0);
  record.folds = result.points.folds;
  record.resampled = options.regression.resample_folds;
  record.seed = seed;
  record.weak_x_points = result.weak_form ? settings.weak_x_points : 0;
  record.weak_t_points = result.weak_form ? settings.weak_t_points : 0;
  record.config = run.config.resolved_toml;
  return result;
}

}  // namespace bhpm::pipeline
