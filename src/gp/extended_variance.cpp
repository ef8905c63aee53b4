#include "gp/extended_variance.h"

#include <ATen/ATen.h>

#include "gp/argument_checks.h"
#include "gp/cholesky.h"

namespace bhpm::gp {

ExtendedVariance::ExtendedVariance(const ConditionedGp& current, const at::Tensor& v)
    : gp_(current), v_(v) {
  require_matrix(v, -1, current.dimensions(), "extended variance", "inputs v");
  const Kernel& kernel = *current.kernel();
  whitened_ = at::linalg_solve_triangular(current.factor(), kernel.matrix(current.inputs(), v),
                                          /*upper=*/false);
  current_ = kernel.diagonal(v) - whitened_.square().sum(0);
}

at::Tensor ExtendedVariance::operator()(const at::Tensor& new_inputs) const {
  if (new_inputs.dim() == 2 && new_inputs.size(0) == 0) return current_.clamp_min(0.0);
  require_matrix(new_inputs, -1, gp_.dimensions(), "extended variance", "new inputs");
  const Kernel& kernel = *gp_.kernel();
  const at::Tensor b = at::linalg_solve_triangular(
      gp_.factor(), kernel.matrix(gp_.inputs(), new_inputs), /*upper=*/false);  // [n, m]
  const at::Tensor schur = kernel.matrix(new_inputs, new_inputs) - at::mm(b.t(), b);
  const at::Tensor lower_s =
      robust_cholesky(schur, "Schur complement of new conditioning inputs").lower;
  const at::Tensor cross = kernel.matrix(new_inputs, v_) - at::mm(b.t(), whitened_);  // [m, P]
  const at::Tensor reduction =
      at::linalg_solve_triangular(lower_s, cross, /*upper=*/false).square().sum(0);
  return (current_ - reduction).clamp_min(0.0);
}

}  // namespace bhpm::gp
