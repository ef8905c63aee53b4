#pragma once
/// `bhpm distill` for a field system (docs/systems.md, "Distilling a system"): per field i,
/// S samples of f_i drawn jointly from root i's exact posterior at its N training rows (the
/// leaves' partials at measurement points, where the data inform f_i), each fitted by the
/// one-field sparse regression (eval/operator_distillation.h) on the monomials of every
/// field's partials to order K up to total degree d, the experiments as the folds
/// (bootstrap-resampled per sample when the configuration asks and there are two or more).
/// The true operator's coefficients are fitted alongside where the run's configuration
/// names the system and every partial it reads is among the inputs.

#include <optional>
#include <string>
#include <vector>

#include "eval/operator_distillation.h"
#include "eval/weak_form_distillation.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

struct FieldDistillation {
  std::string field;
  eval::Distillation distillation;
  std::optional<eval::WeakFormDistillation> weak;  ///< with [distill] weak_form, when fitted
};

/// The distillations of every field, and why there is no weak form where there is none.
struct SystemDistillation {
  std::vector<FieldDistillation> fields;
  std::string weak_missing;  ///< "" when the weak form was fitted or not asked for
};

/// One distillation per field, in the system's order; as the [distill] section of the
/// trained configuration says (config/system_learning_config.h). With weak_form, also each
/// field's equation in weak form (eval/system_weak_form.h) on the leaves' fields read on
/// weak_grid points over their boxes (on a plane, n x n x T points).
SystemDistillation distill_system(const TrainedSystem& trained);

/// distill.json of a system: format "bhpm-system-distill", version 1, the settings, and
/// under "fields" one object per field as eval/distillation_file.h writes one field's.
std::string system_distillation_json(const TrainedSystem& trained,
                                     const SystemDistillation& distillation,
                                     const std::string& run_dir);

}  // namespace bhpm::pipeline
