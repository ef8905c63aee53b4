#pragma once
/// A system's equations in weak form from its experiments' fitted fields (docs/systems.md,
/// "Distilling a system"), on a line or a plane: per field i, u_i,t = sum_j c_ij theta_j on
/// a library whose every column needs the fields alone once the derivatives are moved onto
/// the test functions (eval/weak_form.h, product_weak_system):
///   - the constant,
///   - every field's partials d^(a+b) u_k/dx^a dy^b, a + b = 0..K (b = 0 on a line; "u",
///     "v_x", "v_xy", "v_yy"), in the leaves' order (nn/taylor_forward.h, LeafPartials),
///   - every field's transport terms (u_k^p)_x / p = u_k^(p-1) u_k,x (and along y on a
///     plane), p = 2..d ("u*u_x", "v^2*v_y"),
///   - every monomial of the fields of degree 2..d ("u^2", "u*v", "u^2*v", "v^3"),
/// named as the pointwise library names them (pde/term_library.h), so that the true
/// coefficients carry over by name (eval::attach_truth). Other products of fields with
/// derivatives (u*v_x, u_x^2) are not in it: no weak column holds them alone. Fitted by
/// eval::fit_weak_systems (the one-field weak form's widths from the fields' own scales, pooled
/// over every field and, on a plane, over both directions; cross-validated sparse regression with
/// one fold per experiment, S resampled fits).

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>
#include <vector>

#include "eval/weak_form.h"
#include "eval/weak_form_distillation.h"

namespace bhpm::eval {

/// q fields of one experiment on shared uniform grids; S = [T, n] on a line, [T, n_y, n] on
/// a plane.
struct SystemGridFields {
  WeakGrids grids;              ///< x [n], t [T], y [n_y] on a plane
  std::vector<at::Tensor> u;    ///< [q] of S
  std::vector<at::Tensor> u_x;  ///< [q] of S: the scales' slopes
  std::vector<at::Tensor> u_y;  ///< [q] of S on a plane, empty on a line
  std::vector<at::Tensor> u_t;  ///< [q] of S
};

/// The library above for the named fields in `dimensions` (1 or 2) space dimensions; throws
/// std::invalid_argument unless max_order >= 1, 1 <= degree <= 5 and dimensions is 1 or 2.
std::vector<ProductWeakTerm> system_weak_library(const std::vector<std::string>& fields,
                                                 int max_order, int degree, int dimensions = 1);

/// Per field, in order, the weak-form fit of its equation (left_hand_side "<field>_t");
/// none, with the reason in `why`, when no width can be fitted. The experiments lie on a
/// plane when their grids hold y. Throws std::invalid_argument for experiments whose fields
/// disagree in count or shape with `fields` or with each other's dimension.
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
