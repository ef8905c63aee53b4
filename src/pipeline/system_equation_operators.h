#pragma once
/// `bhpm predict --operator distilled` (or `weak-form`) on a system's run (docs/systems.md,
/// "Predicting with a system"): each field's distilled equation from RUN_DIR/distill.json
/// (pipeline/system_distillation.h), pointwise or in weak form, as polynomial operator
/// samples (solve/polynomial_samples.h) over every field's partials to order K:
///   f_i,s(v) = sum_j xi_ijs theta_j(v),
/// sample s of field i taking its equation's coefficient sample s, the mean operator the
/// coefficients' medians over the samples. Every term of both forms is a monomial of the
/// partials by name ("v_xx", "u^2*v", "u*u_x"; eval/system_weak_form.h), so the coefficients
/// carry over by name.

#include <cstdint>
#include <string>

#include "pipeline/system_prediction.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

/// The first `count` coefficient samples of each field's equation (`source` "distilled": the
/// pointwise fit's; "weak-form": the weak form's). Throws std::invalid_argument naming the
/// file and the rule when distill.json was made from another training, names other fields,
/// holds no weak form or fewer than `count` samples, or names a term that is not a
/// monomial of the run's partials.
SystemOperators system_equation_operators(const std::string& run_dir, const TrainedSystem& trained,
                                          const std::string& source, std::int64_t count);

}  // namespace bhpm::pipeline
