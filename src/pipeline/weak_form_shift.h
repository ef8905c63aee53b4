#pragma once
/// predict.equation_terms = "weak-form" (docs/calibration.md, "Equation terms from the weak
/// form"): the coefficients of the equation's terms taken from the weak form, which reads
/// the training leaves' u alone, instead of from the root, which learned them from the
/// leaves' derivatives. A leaf's derivatives carry errors that every sample of the root
/// shares (at 5 % noise its u_xx is shrunk; on noise-free KdV its u_xxx is about 1 % small),
/// so the root's samples all sit off the equation by the same amount, and the left-out
/// residuals that calibrate their spread cannot see it. The shift that every sample gets is
///   g(v) = sum_k (xi_k - beta_k) theta_k(v),
///   beta = argmin_b || m(V) - Theta(V) b ||_2,
/// theta_k the pointwise forms of the terms the weak form keeps (eval/weak_term_expansion.h),
/// xi_k their median coefficients over the weak form's resamples, m the root's posterior
/// mean and V the training experiments' root inputs (pipeline/distillation_inputs.h). The
/// posterior mean's coefficients on those terms become the weak form's; whatever the root
/// holds beyond them, and the samples' spread, stay as they are.

#include <memory>
#include <string>

#include "pipeline/run_folder.h"
#include "solve/shifted_samples.h"

namespace bhpm::pipeline {

/// g for `run` (its folder `run_dir`), from the weak form on the training windows of
/// RUN_DIR/data.h5 (pipeline/run_distillation.h, training_weak_form). Null, with the reason
/// in `why`, when the weak form cannot be fitted or keeps no term.
std::shared_ptr<const solve::OperatorShift> weak_form_shift(const std::string& run_dir,
                                                            const TrainedRun& run,
                                                            std::string& why);

}  // namespace bhpm::pipeline
