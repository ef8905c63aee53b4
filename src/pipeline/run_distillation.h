#pragma once
/// `bhpm distill` on a trained run (docs/distillation.md): the learned operator as an
/// equation, fitted twice. Pointwise: pathwise samples of the root at the training
/// experiments' root inputs (pipeline/distillation_inputs.h), each by cross-validated
/// sparse regression on a monomial library (eval/operator_distillation.h). In weak form:
/// the training leaves' u on grids of their windows (model/leaf_grid_fields.h,
/// eval/weak_form_distillation.h), when distill.weak_form and the windows' dataset exists.
/// Every random choice derives from predict.seed.

#include <optional>
#include <string>

#include "eval/distillation_file.h"
#include "eval/operator_distillation.h"
#include "eval/weak_form_distillation.h"
#include "pipeline/distillation_inputs.h"
#include "pipeline/run_folder.h"

namespace bhpm::pipeline {

struct RunDistillation {
  DistillPoints points;
  eval::Distillation pointwise;
  std::string truth;  ///< the true equation when one scored the fit, else ""
  /// The weak form; none when not asked for or not fittable (`weak_form_missing` says why).
  std::optional<eval::WeakFormDistillation> weak_form;
  std::string weak_form_missing;
  eval::DistillationSettings record;  ///< what distill.json stores of the settings
};

/// The weak form of the equation on `run`'s training leaves' u over the windows of the
/// dataset `windows` (distill.degree's library to the root's derivative order, the
/// [distill] weak settings, seeded from the top-level seed): what `bhpm distill` fits and what
/// `bhpm predict` takes the equation's terms from (pipeline/weak_form_shift.h). None,
/// with the reason in `why`, when `windows` does not exist or no width can be fitted.
std::optional<eval::WeakFormDistillation> training_weak_form(const std::string& run_dir,
                                                             const std::string& windows,
                                                             const TrainedRun& run,
                                                             std::string& why);

/// Both fits of `run` (its folder `run_dir`); the truth from `data_option` (distill's --data)
/// or the run's own dataset (truth_dataset), the training windows of the weak form from the
/// run's own dataset, else `data_option`. Throws as distill_points and the fits.
RunDistillation distill_run(const std::string& run_dir, const std::string& data_option,
                            const TrainedRun& run);

}  // namespace bhpm::pipeline
