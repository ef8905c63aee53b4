#include "eval/operator_metrics.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "util/number_format.h"
#include "util/tensor_checks.h"

namespace bhpm::eval {

namespace {

/// The first index where `bad` [P] is true, or -1.
std::int64_t first(const at::Tensor& bad) {
  return bad.any().item<bool>() ? bad.nonzero()[0][0].item<std::int64_t>() : -1;
}

/// A double vector of `length` points (any length >= 1 when length < 0) with finite values.
void require_finite_vector(const at::Tensor& values, std::int64_t length, const std::string& where,
                           const std::string& name) {
  util::require_vector(values, length, where, name);
  const std::int64_t i = first(values.isfinite().logical_not());
  if (i >= 0)
    throw std::invalid_argument(where + ": " + name + " must be finite (got " +
                                util::format_significant(values[i].item<double>(), 10) +
                                " at index " + std::to_string(i) + ")");
}

/// Median of a non-empty vector: the middle value, or the mean of the two middle values.
double median_of(const at::Tensor& values) {
  const at::Tensor sorted = std::get<0>(at::sort(values));
  const std::int64_t n = sorted.size(0);
  if (n % 2 == 1) return sorted[n / 2].item<double>();
  return 0.5 * (sorted[n / 2 - 1].item<double>() + sorted[n / 2].item<double>());
}

}  // namespace

OperatorMetrics operator_metrics(const at::Tensor& mean, const at::Tensor& variance,
                                 const at::Tensor& target, const std::vector<double>& levels) {
  const std::string where = "operator metrics";
  require_finite_vector(target, -1, where, "target");
  const std::int64_t points = target.size(0);
  require_finite_vector(mean, points, where, "mean");
  require_finite_vector(variance, points, where, "variance");
  const std::int64_t i = first(variance <= 0.0);
  if (i >= 0)
    throw std::invalid_argument(where + ": variance must be > 0 (got " +
                                util::format_significant(variance[i].item<double>(), 10) +
                                " at index " + std::to_string(i) + ")");
  for (std::size_t l = 0; l < levels.size(); ++l)
    if (!(levels[l] > 0.0 && levels[l] < 1.0))
      throw std::invalid_argument(where + ": levels[" + std::to_string(l) +
                                  "] must be in (0, 1) (got " +
                                  util::format_significant(levels[l], 10) + ")");

  const at::Tensor residual = target - mean;
  const at::Tensor squared = residual.square();
  OperatorMetrics metrics;
  metrics.points = points;
  metrics.rmse = std::sqrt(squared.mean().item<double>());
  const double spread = std::sqrt((target - target.mean()).square().mean().item<double>());
  metrics.relative_rmse =
      spread > 0.0 ? metrics.rmse / spread : std::numeric_limits<double>::quiet_NaN();
  const at::Tensor nlpd = 0.5 * at::log(2.0 * M_PI * variance) + squared / (2.0 * variance);
  metrics.median_nlpd = median_of(nlpd);
  metrics.mean_nlpd = nlpd.mean().item<double>();
  // Probability mass of the central interval that just reaches y_i.
  const at::Tensor mass = at::erf(residual.abs() / at::sqrt(2.0 * variance));
  for (const double level : levels)
    metrics.coverage.emplace_back(level, (mass <= level).to(at::kDouble).mean().item<double>());
  return metrics;
}

std::vector<double> rmse_per_experiment(const at::Tensor& mean, const at::Tensor& target,
                                        const at::Tensor& experiment, std::int64_t experiments) {
  const std::string where = "RMSE per experiment";
  if (experiments < 1)
    throw std::invalid_argument(where + ": experiments must be >= 1 (got " +
                                std::to_string(experiments) + ")");
  require_finite_vector(target, -1, where, "target");
  const std::int64_t points = target.size(0);
  require_finite_vector(mean, points, where, "mean");
  if (!(experiment.defined() && experiment.scalar_type() == at::kLong && experiment.dim() == 1 &&
        experiment.size(0) == points))
    throw std::invalid_argument(where + ": experiment must be an int64 tensor [" +
                                std::to_string(points) + "] (got " +
                                util::describe_tensor(experiment) + ")");
  const std::int64_t i = first((experiment < 0).logical_or(experiment >= experiments));
  if (i >= 0)
    throw std::invalid_argument(where + ": experiment indices must be in [0, " +
                                std::to_string(experiments) + ") (got " +
                                std::to_string(experiment[i].item<std::int64_t>()) + " at index " +
                                std::to_string(i) + ")");

  const at::Tensor sums = at::zeros({experiments}, target.options())
                              .index_add_(0, experiment, (target - mean).square());
  const at::Tensor counts = at::bincount(experiment, {}, experiments).to(at::kDouble);
  std::vector<double> rmse;
  for (std::int64_t e = 0; e < experiments; ++e) {
    const double count = counts[e].item<double>();
    rmse.push_back(count > 0 ? std::sqrt(sums[e].item<double>() / count)
                             : std::numeric_limits<double>::quiet_NaN());
  }
  return rmse;
}

}  // namespace bhpm::eval
