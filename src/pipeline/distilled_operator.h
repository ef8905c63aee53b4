#pragma once
/// `bhpm predict --operator distilled` (or `weak-form`): the distilled equation's coefficient
/// samples (RUN_DIR/distill.json, eval/distillation_file.h), or its weak form's with each
/// weak term by its pointwise form (eval/weak_term_expansion.h), as polynomial operator
/// samples (solve/polynomial_samples.h), solved like the root's samples.

#include <cstdint>
#include <memory>
#include <string>

#include "config/run_config.h"
#include "gp/function_samples.h"

namespace bhpm::pipeline {

/// The first S coefficient samples of RUN_DIR/distill.json (predict.operator "distilled":
/// the pointwise fit's; "weak-form": the weak form's) as polynomial operator samples;
/// refuses a file made from another training, holding fewer samples or no weak form.
std::shared_ptr<const gp::FunctionSamples> distilled_samples(const std::string& run_dir,
                                                             const config::RunConfig& config,
                                                             std::int64_t count);

}  // namespace bhpm::pipeline
