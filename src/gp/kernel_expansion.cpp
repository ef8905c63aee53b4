#include "gp/kernel_expansion.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "gp/kernel.h"
#include "gp/mean.h"
#include "util/tensor_values.h"

namespace bhpm::gp {

namespace {

/// Points per block of bump exponents: a block of [rows, M] exponents stays in cache and
/// is exponentiated by one vectorised call.
constexpr std::int64_t kBlockEntries = 8192;

/// q0 + q1 . v_p + v_p^T Q2 v_p for each p, written into out [points].
void polynomial_values(const KernelExpansion& g, const double* v, std::int64_t points,
                       double* out) {
  const std::int64_t dims = g.dimensions;
  std::fill(out, out + points, g.constant);
  for (std::int64_t d = 0; d < dims; ++d) {
    const double* vd = v + d * points;
    // q1_d v_d + v_d sum_e Q2_de v_e: the linear and quadratic terms of input d.
    for (std::int64_t p = 0; p < points; ++p) {
      double inner = g.linear[static_cast<std::size_t>(d)];
      for (std::int64_t e = 0; e < dims; ++e)
        inner += g.quadratic[static_cast<std::size_t>(d * dims + e)] * v[e * points + p];
      out[p] += vd[p] * inner;
    }
  }
}

/// The kernels below run in the widest vector instructions the CPU has: GCC compiles one
/// copy per listed target and picks one when the program loads (function multiversioning).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define BHPM_VECTOR_CLONES __attribute__((target_clones("default", "avx2", "arch=x86-64-v4")))
#else
#define BHPM_VECTOR_CLONES
#endif

/// exponents[r, j] = -1/2 sum_d (v_d,first+r / l_d - c_jd)^2 for r < rows, j < M.
BHPM_VECTOR_CLONES
void bump_exponents(const KernelExpansion& g, const double* v, std::int64_t points,
                    std::int64_t first, std::int64_t rows, double* exponents) {
  const std::int64_t m = g.bumps();
  for (std::int64_t r = 0; r < rows; ++r) {
    double* row = exponents + r * m;
#pragma omp simd
    for (std::int64_t j = 0; j < m; ++j) row[j] = 0.0;
    for (std::int64_t d = 0; d < g.dimensions; ++d) {
      const double a =
          v[d * points + first + r] * g.inverse_lengthscales[static_cast<std::size_t>(d)];
      const double* centre = g.centres.data() + d * m;
#pragma omp simd
      for (std::int64_t j = 0; j < m; ++j) {
        const double difference = a - centre[j];
        row[j] -= 0.5 * difference * difference;
      }
    }
  }
}

/// out[first + r] += sum_j beta_j bumps[r, j] for r < rows.
BHPM_VECTOR_CLONES
void add_weighted_rows(const KernelExpansion& g, const double* bumps, std::int64_t first,
                       std::int64_t rows, double* out) {
  const std::int64_t m = g.bumps();
  const double* beta = g.bump_weights.data();
  for (std::int64_t r = 0; r < rows; ++r) {
    const double* row = bumps + r * m;
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (std::int64_t j = 0; j < m; ++j) sum += beta[j] * row[j];
    out[first + r] += sum;
  }
}

/// Adds sum_j beta_j exp(-|v_p / l - c_j|^2 / 2) to out[p] for p in [first, first + rows).
void add_bumps(const KernelExpansion& g, const double* v, std::int64_t points, std::int64_t first,
               std::int64_t rows, double* exponents, double* out) {
  bump_exponents(g, v, points, first, rows, exponents);
  at::from_blob(exponents, {rows * g.bumps()}, at::kDouble).exp_();
  add_weighted_rows(g, exponents, first, rows, out);
}

}  // namespace

KernelExpansion::KernelExpansion(std::int64_t dimensions)
    : dimensions(dimensions),
      linear(static_cast<std::size_t>(dimensions), 0.0),
      quadratic(static_cast<std::size_t>(dimensions * dimensions), 0.0) {}

bool KernelExpansion::set_bumps(const at::Tensor& lengthscales, const at::Tensor& centres,
                                const at::Tensor& weights) {
  if (bumps() > 0) return false;
  if (lengthscales.numel() != dimensions || centres.dim() != 2 || centres.size(1) != dimensions ||
      weights.numel() != centres.size(0))
    throw std::invalid_argument(
        "kernel expansion: bumps need lengthscales [D], centres [M, D] "
        "and weights [M] with D = " +
        std::to_string(dimensions));
  const at::Tensor inverse = lengthscales.detach().reciprocal();
  inverse_lengthscales = util::plain_values(inverse);
  this->centres = util::plain_values((centres.detach() * inverse).t());
  bump_weights = util::plain_values(weights);
  return true;
}

void KernelExpansion::add_polynomial(const at::Tensor& constant, const at::Tensor& linear,
                                     const at::Tensor& quadratic) {
  if (constant.numel() != 1 || linear.numel() != dimensions ||
      quadratic.numel() != dimensions * dimensions)
    throw std::invalid_argument(
        "kernel expansion: a polynomial needs c [], b [D] and A [D, D] "
        "with D = " +
        std::to_string(dimensions));
  this->constant += constant.detach().item<double>();
  const std::vector<double> b = util::plain_values(linear), a = util::plain_values(quadratic);
  for (std::size_t d = 0; d < b.size(); ++d) this->linear[d] += b[d];
  for (std::size_t i = 0; i < a.size(); ++i) this->quadratic[i] += a[i];
}

void KernelExpansion::evaluate(const double* v, std::int64_t points, double* out) const {
  polynomial_values(*this, v, points, out);
  const std::int64_t m = bumps();
  if (m == 0) return;
  const std::int64_t rows = std::max<std::int64_t>(1, kBlockEntries / m);
  std::vector<double> exponents(static_cast<std::size_t>(std::min(rows, points) * m));
  for (std::int64_t first = 0; first < points; first += rows)
    add_bumps(*this, v, points, first, std::min(rows, points - first), exponents.data(), out);
}

namespace {

/// Bump j's centre c_j [D] (the expansion stores them by dimension).
std::vector<double> centre_of(const KernelExpansion& g, std::int64_t j) {
  std::vector<double> centre(static_cast<std::size_t>(g.dimensions));
  for (std::int64_t d = 0; d < g.dimensions; ++d)
    centre[static_cast<std::size_t>(d)] = g.centres[static_cast<std::size_t>(d * g.bumps() + j)];
  return centre;
}

/// The bumps of a g and b h, equal centres merged: (centres [M', D] row by row, weights).
std::pair<std::vector<std::vector<double>>, std::vector<double>> merged_bumps(
    double a, const KernelExpansion& g, double b, const KernelExpansion& h) {
  std::vector<std::vector<double>> centres;
  std::vector<double> weights;
  std::map<std::vector<double>, std::size_t> index;
  for (const auto& [factor, part] : {std::pair{a, &g}, std::pair{b, &h}})
    for (std::int64_t j = 0; j < part->bumps(); ++j) {
      std::vector<double> centre = centre_of(*part, j);
      const double weight = factor * part->bump_weights[static_cast<std::size_t>(j)];
      const auto [found, inserted] = index.try_emplace(centre, centres.size());
      if (!inserted) {
        weights[found->second] += weight;
        continue;
      }
      centres.push_back(std::move(centre));
      weights.push_back(weight);
    }
  return {centres, weights};
}

}  // namespace

std::optional<KernelExpansion> linear_combination(double a, const KernelExpansion& g, double b,
                                                  const KernelExpansion& h) {
  if (g.dimensions != h.dimensions) return std::nullopt;
  if (g.bumps() > 0 && h.bumps() > 0 && g.inverse_lengthscales != h.inverse_lengthscales)
    return std::nullopt;
  KernelExpansion sum(g.dimensions);
  sum.inverse_lengthscales = g.bumps() > 0 ? g.inverse_lengthscales : h.inverse_lengthscales;
  const auto [centres, weights] = merged_bumps(a, g, b, h);
  const std::size_t m = weights.size();
  sum.centres.resize(m * static_cast<std::size_t>(g.dimensions));
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t d = 0; d < static_cast<std::size_t>(g.dimensions); ++d)
      sum.centres[d * m + j] = centres[j][d];
  sum.bump_weights = weights;
  sum.constant = a * g.constant + b * h.constant;
  for (std::size_t i = 0; i < sum.linear.size(); ++i)
    sum.linear[i] = a * g.linear[i] + b * h.linear[i];
  for (std::size_t i = 0; i < sum.quadratic.size(); ++i)
    sum.quadratic[i] = a * g.quadratic[i] + b * h.quadratic[i];
  return sum;
}

std::optional<KernelExpansion> expand_weighted_sum(const Mean& mean, const Kernel& kernel,
                                                   const at::Tensor& x, const at::Tensor& w) {
  if (!x.device().is_cpu()) return std::nullopt;
  KernelExpansion expansion(kernel.dimensions());
  if (!mean.add_to(expansion) || !kernel.add_weighted_sum(x, w, expansion)) return std::nullopt;
  return expansion;
}

}  // namespace bhpm::gp
