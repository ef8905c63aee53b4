#pragma once
/// A system's equations in weak form from its experiments' fitted fields (docs/systems.md,
/// "Distilling a system"), one space dimension: per field i, u_i,t = sum_j c_ij theta_j on
/// a library whose every column needs the fields alone once the derivatives are moved onto
/// the test functions (eval/weak_form.h, product_weak_system):
///   - the constant,
///   - every field's x-derivatives d^m u_k/dx^m, m = 0..K ("u", "v_x", "v_xx"),
///   - every monomial of the fields of degree 2..d ("u^2", "u*v", "u^2*v", "v^3"),
/// named as the pointwise library names them (pde/term_library.h), so that the true
/// coefficients carry over by name (eval::attach_truth). Products of fields with
/// derivatives (u*u_x) are not in it. Fitted by eval::fit_weak_systems (the one-field weak
/// form's widths from the fields' own scales, pooled over every field, cross-validated sparse
/// regression with one fold per experiment, S resampled fits).

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>
#include <vector>

#include "eval/weak_form.h"
#include "eval/weak_form_distillation.h"

namespace bhpm::eval {

/// q fields of one experiment on shared uniform grids.
struct SystemGridFields {
  at::Tensor x;                 ///< [n]
  at::Tensor t;                 ///< [T]
  std::vector<at::Tensor> u;    ///< [q] of [T, n]
  std::vector<at::Tensor> u_x;  ///< [q] of [T, n]: the scales' slopes
  std::vector<at::Tensor> u_t;  ///< [q] of [T, n]
};

/// The library above for the named fields; throws std::invalid_argument unless max_order
/// >= 1 and 1 <= degree <= 5.
std::vector<ProductWeakTerm> system_weak_library(const std::vector<std::string>& fields,
                                                 int max_order, int degree);

/// Per field, in order, the weak-form fit of its equation (left_hand_side "<field>_t");
/// none, with the reason in `why`, when no width can be fitted. Throws std::invalid_argument
/// for experiments whose fields disagree in count or shape with `fields`.
std::optional<std::vector<WeakFormDistillation>> fit_system_weak_form(
    const std::vector<SystemGridFields>& experiments, const std::vector<std::string>& fields,
    int max_order, int degree, const WeakFormOptions& options, std::string& why);

/// Sets the true coefficients of `weak` (fitted on `library`) where the true operator is in
/// the library: its values `truth` [P] at root inputs v [P, D] (columns named
/// `input_names`, every field's partials) fitted by least squares on the library's terms
/// evaluated there; left unknown when a term's partial is not among the inputs, the truth
/// is undefined, or the fit leaves more than 1e-6 of the truth's RMS.
void attach_system_truth(WeakFormDistillation& weak, const std::vector<ProductWeakTerm>& library,
                         const std::vector<std::string>& fields,
                         const std::vector<std::string>& input_names, const at::Tensor& v,
                         const at::Tensor& truth);

}  // namespace bhpm::eval
