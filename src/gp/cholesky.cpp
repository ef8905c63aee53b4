#include "gp/cholesky.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>
#include <tuple>
#include <vector>

#include "gp/argument_checks.h"
#include "util/option_check.h"

namespace bhpm::gp {

namespace {

/// L and whether every matrix of the batch factorised. LAPACK (OpenBLAS) may report
/// success on NaN input, so a non-finite diagonal of L counts as a failure too.
std::tuple<at::Tensor, bool> try_cholesky(const at::Tensor& a) {
  auto [lower, info] = at::linalg_cholesky_ex(a);
  const at::Tensor finite = at::isfinite(lower.detach().diagonal(0, -2, -1)).all();
  return {lower, info.eq(0).all().logical_and(finite).item<bool>()};
}

std::string jitter_list(const std::vector<double>& tried) {
  std::ostringstream text;
  text << "0";
  for (double j : tried) text << ", " << j;
  return text.str();
}

}  // namespace

void validate(const CholeskyOptions& options) {
  util::require_positive(options.first_jitter, "cholesky", "first_jitter");
  util::require_option(
      std::isfinite(options.last_jitter) && options.last_jitter >= options.first_jitter, "cholesky",
      "last_jitter", "must be >= first_jitter", util::option_value(options.last_jitter));
  util::require_above(options.growth, 1.0, "cholesky", "growth");
}

CholeskyFactor robust_cholesky(const at::Tensor& a, const std::string& name,
                               const CholeskyOptions& options) {
  validate(options);
  if (!a.defined() || a.scalar_type() != at::kDouble || a.dim() < 2 || a.size(-1) != a.size(-2) ||
      a.size(-1) < 1)
    throw std::invalid_argument("cholesky of " + name +
                                ": the matrix must be a double tensor "
                                "[.., N, N] with N >= 1 (got " +
                                describe_tensor(a) + ")");
  auto [lower, ok] = try_cholesky(a);
  if (ok) return {lower, 0.0, 0.0};
  if (!at::isfinite(a).all().item<bool>())
    throw CholeskyError("cholesky of " + name + " failed: the matrix has NaN or infinite entries");
  const at::Tensor diagonal = a.detach().diagonal(0, -2, -1);
  double scale = diagonal.abs().mean().item<double>();
  if (!(scale > 0.0)) scale = 1.0;
  const at::Tensor identity = at::eye(a.size(-1), a.options().requires_grad(false));
  std::vector<double> tried;
  // The relative tolerance keeps last_jitter in the schedule despite rounding of growth^k.
  for (double j = options.first_jitter; j <= options.last_jitter * (1.0 + 1e-9);
       j *= options.growth) {
    tried.push_back(j);
    std::tie(lower, ok) = try_cholesky(a + (j * scale) * identity);
    if (ok) return {lower, j, j * scale};
  }
  std::ostringstream scale_text;
  scale_text << scale;
  throw CholeskyError("cholesky of " + name +
                      " failed: not positive definite with relative jitter " + jitter_list(tried) +
                      " times the mean |diagonal| " + scale_text.str());
}

}  // namespace bhpm::gp
