#include "gp/extended_variance.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

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

namespace {

/// The sum of the `count` largest eigenvalues of the symmetric [P, P] matrix that
/// `apply` multiplies [P, k] blocks by, from the subspace spanned by `start` [P, k]
/// (k >= count) after one more product: the sum of the top Ritz values.
double top_eigenvalue_sum(const std::function<at::Tensor(const at::Tensor&)>& apply,
                          const at::Tensor& start, std::int64_t count) {
  const at::Tensor basis = std::get<0>(at::linalg_qr(apply(std::get<0>(at::linalg_qr(start)))));
  const at::Tensor ritz = at::linalg_eigvalsh(at::mm(basis.t(), apply(basis)));  // ascending
  return ritz.narrow(0, ritz.size(0) - count, count).sum().item<double>();
}

}  // namespace

double ExtendedVariance::least_mean(std::int64_t count) const {
  if (count < 0) throw std::invalid_argument("extended variance: a negative input count");
  const std::int64_t points = v_.size(0);
  if (count >= points) return 0.0;
  const at::NoGradGuard no_grad;
  const at::Tensor v = v_.detach(), whitened = whitened_.detach();
  const at::Tensor prior = gp_.kernel()->matrix(v, v).detach();  // K_vv [P, P]
  const at::Tensor variances = current_.detach();
  const double total = variances.sum().item<double>();
  if (count == 0) return total / static_cast<double>(points);
  const std::int64_t width = count + 8;
  double top = 0.0;
  if (width >= points) {
    const at::Tensor covariance = prior - at::mm(whitened.t(), whitened);  // Sigma
    top = at::linalg_eigvalsh(covariance).narrow(0, points - count, count).sum().item<double>();
  } else {
    const auto apply = [&](const at::Tensor& q) {  // Sigma q without forming Sigma
      return at::mm(prior, q) - at::mm(whitened.t(), at::mm(whitened, q));
    };
    const at::Tensor largest = std::get<1>(variances.topk(width));
    const at::Tensor start =
        prior.index_select(1, largest) - at::mm(whitened.t(), whitened.index_select(1, largest));
    top = top_eigenvalue_sum(apply, start, count);
  }
  return std::max(0.0, (total - top) / static_cast<double>(points));
}

}  // namespace bhpm::gp
