#include "eval/sparse_regression.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "util/random.h"

namespace bhpm::eval {

namespace {

/// Normal equations of normalised columns over some rows: G = Theta~^T Theta~ [J, J],
/// m = Theta~^T y~ [S][J], yy = y~^T y~ [S].
struct NormalEquations {
  std::int64_t terms = 0;
  std::vector<double> gram;                  ///< row-major [J * J]
  std::vector<std::vector<double>> moments;  ///< [S][J]
  std::vector<double> squares;               ///< [S]
};

NormalEquations normal_equations(const at::Tensor& theta, const at::Tensor& targets) {
  NormalEquations normal;
  normal.terms = theta.size(1);
  const at::Tensor gram = at::mm(theta.t(), theta).contiguous();
  normal.gram.assign(gram.data_ptr<double>(), gram.data_ptr<double>() + gram.numel());
  const at::Tensor moments = at::mm(targets, theta).contiguous();  // [S, J]
  const at::Tensor squares = targets.square().sum(1).contiguous();
  for (std::int64_t s = 0; s < targets.size(0); ++s) {
    const double* row = moments.data_ptr<double>() + s * normal.terms;
    normal.moments.emplace_back(row, row + normal.terms);
    normal.squares.push_back(squares[s].item<double>());
  }
  return normal;
}

NormalEquations difference(const NormalEquations& all, const NormalEquations& part) {
  NormalEquations rest = all;
  for (std::size_t i = 0; i < rest.gram.size(); ++i) rest.gram[i] -= part.gram[i];
  for (std::size_t s = 0; s < rest.moments.size(); ++s) {
    for (std::size_t j = 0; j < rest.moments[s].size(); ++j)
      rest.moments[s][j] -= part.moments[s][j];
    rest.squares[s] -= part.squares[s];
  }
  return rest;
}

/// sum_k count_k part_k for target `target`: the normal equations of the rows of fold k
/// repeated count_k times (the other targets' moments are left 0).
NormalEquations weighted_sum(const std::vector<NormalEquations>& parts,
                             const std::vector<int>& counts, std::size_t target) {
  NormalEquations sum = parts.front();
  std::fill(sum.gram.begin(), sum.gram.end(), 0.0);
  for (auto& row : sum.moments) std::fill(row.begin(), row.end(), 0.0);
  std::fill(sum.squares.begin(), sum.squares.end(), 0.0);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const double w = counts[k];
    for (std::size_t i = 0; i < sum.gram.size(); ++i) sum.gram[i] += w * parts[k].gram[i];
    for (std::size_t j = 0; j < sum.moments[target].size(); ++j)
      sum.moments[target][j] += w * parts[k].moments[target][j];
    sum.squares[target] += w * parts[k].squares[target];
  }
  return sum;
}

/// How often each of `folds` folds is drawn in `folds` draws with replacement.
std::vector<int> bootstrap_counts(std::size_t folds, std::uint64_t seed) {
  util::Rng rng(seed);
  std::vector<int> counts(folds, 0);
  for (std::size_t draw = 0; draw < folds; ++draw) ++counts[rng.below(folds)];
  return counts;
}

/// Solves G_SS xi_S = m_S on the kept terms S by Cholesky, with a ridge of 1e-12 times
/// G's largest diagonal entry (it keeps collinear columns solvable and moves a
/// well-posed solution by about 1e-12 relative); xi is 0 outside S.
std::vector<double> solve_on(const NormalEquations& normal, const std::vector<double>& moments,
                             const std::vector<std::int64_t>& kept) {
  const std::int64_t J = normal.terms, k = static_cast<std::int64_t>(kept.size());
  double largest = 0;
  for (std::int64_t j = 0; j < J; ++j) largest = std::max(largest, normal.gram[j * J + j]);
  const double ridge = 1e-12 * largest + std::numeric_limits<double>::min();
  std::vector<double> factor(k * k, 0.0), x(k);
  for (std::int64_t a = 0; a < k; ++a)
    for (std::int64_t b = 0; b <= a; ++b) {
      double sum = normal.gram[kept[a] * J + kept[b]] + (a == b ? ridge : 0.0);
      for (std::int64_t c = 0; c < b; ++c) sum -= factor[a * k + c] * factor[b * k + c];
      factor[a * k + b] = a == b ? std::sqrt(std::max(sum, ridge)) : sum / factor[b * k + b];
    }
  for (std::int64_t a = 0; a < k; ++a) {  // L z = m_S
    double sum = moments[kept[a]];
    for (std::int64_t c = 0; c < a; ++c) sum -= factor[a * k + c] * x[c];
    x[a] = sum / factor[a * k + a];
  }
  for (std::int64_t a = k - 1; a >= 0; --a) {  // L^T xi = z
    double sum = x[a];
    for (std::int64_t c = a + 1; c < k; ++c) sum -= factor[c * k + a] * x[c];
    x[a] = sum / factor[a * k + a];
  }
  std::vector<double> xi(J, 0.0);
  for (std::int64_t a = 0; a < k; ++a) xi[kept[a]] = x[a];
  return xi;
}

/// STLSQ of target `target` on the rows behind `normal`, from the terms in `usable`: term j
/// stays while its contribution on the rows behind `measure` is at least `threshold` of the
/// target's there,
///   |xi~_j| ||theta~_j|| >= threshold ||y~||,  i.e.  |xi~_j| sqrt(G_jj) >= threshold sqrt(yy)
/// with G and yy of `measure`. On all rows (G_jj = yy = P) this is |xi~_j| >= threshold.
std::vector<double> thresholded_fit(const NormalEquations& normal, std::size_t target,
                                    const std::vector<std::int64_t>& usable, double threshold,
                                    int max_iterations, const NormalEquations& measure) {
  const std::vector<double>& moments = normal.moments[target];
  const double target_norm = std::sqrt(std::max(measure.squares[target], 0.0));
  std::vector<std::int64_t> kept = usable;
  std::vector<double> xi(normal.terms, 0.0);
  for (int round = 0; round < max_iterations && !kept.empty(); ++round) {
    xi = solve_on(normal, moments, kept);
    std::vector<std::int64_t> next;
    for (const std::int64_t j : kept) {
      const double column_norm = std::sqrt(std::max(measure.gram[j * measure.terms + j], 0.0));
      if (std::abs(xi[j]) * column_norm >= threshold * target_norm) next.push_back(j);
    }
    if (next == kept) break;
    kept = next;
    if (kept.empty()) xi.assign(normal.terms, 0.0);
  }
  return xi;
}

/// Relative squared errors below this are not resolved by the normal equations (the
/// difference y^T y - 2 xi . m + xi^T G xi cancels to rounding): they count as equal.
constexpr double kResolvedError = 1e-10;

/// Relative squared error of xi on the rows behind `normal`, from its normal equations:
/// (y^T y - 2 xi . m + xi^T G xi) / y^T y (1 for xi = 0), at least kResolvedError. Relative,
/// so that experiments of different amplitudes weigh alike in the mean over folds and in
/// its standard error.
double relative_squared_error(const NormalEquations& normal, std::size_t target,
                              const std::vector<double>& xi) {
  const std::int64_t J = normal.terms;
  double quadratic = 0, linear = 0;
  for (std::int64_t a = 0; a < J; ++a) {
    if (xi[a] == 0.0) continue;
    linear += xi[a] * normal.moments[target][a];
    for (std::int64_t b = 0; b < J; ++b) quadratic += xi[a] * normal.gram[a * J + b] * xi[b];
  }
  const double squares = normal.squares[target];
  const double error = squares > 0 ? (squares - 2 * linear + quadratic) / squares : 0.0;
  return std::max(error, kResolvedError);
}

/// The index of the chosen threshold by the one-standard-error rule over the folds'
/// errors [F][lambda].
std::size_t one_standard_error_choice(const std::vector<std::vector<double>>& errors) {
  const std::size_t candidates = errors.front().size();
  const auto folds = static_cast<double>(errors.size());
  std::vector<double> mean(candidates, 0.0), spread(candidates, 0.0);
  for (std::size_t i = 0; i < candidates; ++i) {
    for (const auto& fold : errors) mean[i] += fold[i] / folds;
    for (const auto& fold : errors) spread[i] += (fold[i] - mean[i]) * (fold[i] - mean[i]);
    spread[i] = std::sqrt(spread[i] / (folds - 1) / folds);
  }
  const std::size_t best =
      static_cast<std::size_t>(std::min_element(mean.begin(), mean.end()) - mean.begin());
  std::size_t chosen = best;
  for (std::size_t i = best; i < candidates; ++i)
    if (mean[i] <= mean[best] + spread[best]) chosen = i;
  return chosen;
}

/// The normal equations of all rows, of each fold's rows, and of all rows but each fold's.
struct FoldEquations {
  NormalEquations all;
  std::vector<NormalEquations> held_out, kept;  ///< [F]
};

FoldEquations fold_equations(const at::Tensor& theta, const at::Tensor& targets,
                             const at::Tensor& fold, std::int64_t folds) {
  FoldEquations equations{normal_equations(theta, targets), {}, {}};
  for (std::int64_t k = 0; k < folds; ++k) {
    const at::Tensor rows = (fold == k).nonzero().squeeze(1);
    if (rows.numel() == 0)
      throw std::invalid_argument("sparse regression: fold " + std::to_string(k) + " is empty");
    equations.held_out.push_back(
        normal_equations(theta.index_select(0, rows), targets.index_select(1, rows)));
    equations.kept.push_back(difference(equations.all, equations.held_out.back()));
  }
  return equations;
}

/// The threshold of target `target` (candidates ascending): STLSQ on all folds but one,
/// its terms measured on those folds alone (the left-out one unseen), scored on the
/// left-out one, chosen by the one-standard-error rule.
double cross_validated_threshold(const FoldEquations& equations, std::size_t target,
                                 const std::vector<std::int64_t>& usable,
                                 const std::vector<double>& thresholds, int max_iterations) {
  const std::size_t folds = equations.held_out.size();
  std::vector<std::vector<double>> errors(folds, std::vector<double>(thresholds.size()));
  for (std::size_t k = 0; k < folds; ++k)
    for (std::size_t i = 0; i < thresholds.size(); ++i)
      errors[k][i] =
          relative_squared_error(equations.held_out[k], target,
                                 thresholded_fit(equations.kept[k], target, usable, thresholds[i],
                                                 max_iterations, equations.kept[k]));
  return thresholds[one_standard_error_choice(errors)];
}

/// The normal equations of target `target`'s final fit: all rows, or with
/// options.resample_folds its own bootstrap resample of the folds.
NormalEquations final_fit_equations(const FoldEquations& equations, std::int64_t target,
                                    const SparseRegressionOptions& options) {
  if (!options.resample_folds) return equations.all;
  const std::uint64_t seed =
      util::derive_seed(options.seed, "fold_resample", static_cast<std::uint64_t>(target));
  return weighted_sum(equations.held_out, bootstrap_counts(equations.held_out.size(), seed),
                      static_cast<std::size_t>(target));
}

void check_inputs(const at::Tensor& theta, const at::Tensor& targets, const at::Tensor& fold,
                  const SparseRegressionOptions& options) {
  auto fail = [](const std::string& rule) {
    throw std::invalid_argument("sparse regression: " + rule);
  };
  if (theta.dim() != 2 || targets.dim() != 2 || theta.size(0) != targets.size(1))
    fail("theta must be [P, J] and targets [S, P]");
  if (fold.dim() != 1 || fold.size(0) != theta.size(0) || fold.scalar_type() != at::kLong)
    fail("fold must be an int64 [P] tensor");
  if (!at::isfinite(theta).all().item<bool>() || !at::isfinite(targets).all().item<bool>())
    fail("theta and targets must be finite");
  if (options.thresholds.empty() || options.max_iterations < 1)
    fail("needs at least one threshold and max_iterations >= 1");
  for (const double lambda : options.thresholds)
    if (!(lambda >= 0.0) || !std::isfinite(lambda)) fail("thresholds must be finite and >= 0");
}

}  // namespace

std::vector<double> SparseRegressionOptions::default_thresholds() {
  std::vector<double> thresholds = {0.0};
  for (int i = 0; i <= 32; ++i) thresholds.push_back(std::pow(10.0, -4.0 + i / 8.0));
  return thresholds;
}

SparseFit sparse_regression(const at::Tensor& theta_in, const at::Tensor& targets_in,
                            const at::Tensor& fold, const SparseRegressionOptions& options) {
  check_inputs(theta_in, targets_in, fold, options);
  std::vector<double> thresholds = options.thresholds;
  std::sort(thresholds.begin(), thresholds.end());
  const std::int64_t folds = fold.numel() == 0 ? 0 : fold.max().item<std::int64_t>() + 1;
  if (folds < 2 || fold.min().item<std::int64_t>() < 0)
    throw std::invalid_argument("sparse regression: needs folds 0..F-1 with F >= 2");

  const at::Tensor column_scale = theta_in.square().mean(0).sqrt();    // s [J]
  const at::Tensor target_scale = targets_in.square().mean(1).sqrt();  // r [S]
  const at::Tensor theta = theta_in / at::where(column_scale > 0, column_scale, 1.0);
  const at::Tensor targets =
      targets_in / at::where(target_scale > 0, target_scale, 1.0).unsqueeze(1);
  std::vector<std::int64_t> usable;
  for (std::int64_t j = 0; j < theta.size(1); ++j)
    if (column_scale[j].item<double>() > 0) usable.push_back(j);

  const FoldEquations equations = fold_equations(theta, targets, fold, folds);
  SparseFit fit;
  fit.coefficients = at::zeros({targets.size(0), theta.size(1)}, theta.options());
  for (std::int64_t s = 0; s < targets.size(0); ++s) {
    const double lambda =
        cross_validated_threshold(equations, s, usable, thresholds, options.max_iterations);
    fit.thresholds.push_back(lambda);
    // Measured on all rows, the region the equation describes; a resample moves only the
    // estimate of the coefficients.
    const std::vector<double> xi =
        thresholded_fit(final_fit_equations(equations, s, options), s, usable, lambda,
                        options.max_iterations, equations.all);
    for (std::int64_t j = 0; j < theta.size(1); ++j) fit.coefficients[s][j] = xi[j];
  }
  // Back to the units of theta and y: xi_j = xi~_j r / s_j.
  fit.coefficients = fit.coefficients * target_scale.unsqueeze(1) /
                     at::where(column_scale > 0, column_scale, 1.0).unsqueeze(0);
  return fit;
}

at::Tensor least_squares(const at::Tensor& theta, const at::Tensor& targets) {
  const at::Tensor column_scale = theta.square().mean(0).sqrt();
  const at::Tensor scale = at::where(column_scale > 0, column_scale, 1.0);  // s [J]
  const NormalEquations normal = normal_equations(theta / scale, targets);
  std::vector<std::int64_t> all(static_cast<std::size_t>(theta.size(1)));
  std::iota(all.begin(), all.end(), 0);
  at::Tensor xi = at::zeros({targets.size(0), theta.size(1)}, theta.options());
  for (std::int64_t s = 0; s < targets.size(0); ++s) {
    const std::vector<double> row = solve_on(normal, normal.moments[s], all);
    for (std::int64_t j = 0; j < theta.size(1); ++j) xi[s][j] = row[j];
  }
  return xi / scale;  // xi_j = xi~_j / s_j
}

}  // namespace bhpm::eval
