#pragma once
/// `bhpm distill` for a field system (docs/systems.md, "Distilling a system"): per field i,
/// S samples of f_i drawn jointly from root i's exact posterior at its N training rows (the
/// leaves' partials at measurement points, where the data inform f_i), each fitted by the
/// one-field sparse regression (eval/operator_distillation.h) on the monomials of every
/// field's partials to order K up to total degree d, the experiments as the folds
/// (bootstrap-resampled per sample when the configuration asks and there are two or more).
/// The true operator's coefficients are fitted alongside where the run's configuration
/// names the system and every partial it reads is among the inputs.

#include <string>
#include <vector>

#include "eval/operator_distillation.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

struct FieldDistillation {
  std::string field;
  eval::Distillation distillation;
};

/// One distillation per field, in the system's order; as the [distill] section of the
/// trained configuration says (config/system_learning_config.h).
std::vector<FieldDistillation> distill_system(const TrainedSystem& trained);

/// distill.json of a system: format "bhpm-system-distill", version 1, the settings, and
/// under "fields" one object per field as eval/distillation_file.h writes one field's.
std::string system_distillation_json(const TrainedSystem& trained,
                                     const std::vector<FieldDistillation>& fields,
                                     const std::string& run_dir);

}  // namespace bhpm::pipeline
