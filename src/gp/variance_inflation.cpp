#include "gp/variance_inflation.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gp/argument_checks.h"
#include "util/number_format.h"
#include "util/scalar_minimisation.h"

namespace bhpm::gp {

namespace {

constexpr const char* kWhere = "variance inflation";

void require_residuals(const ScoredResiduals& scored) {
  const auto& [residual, function_variance, noise_variance] = scored;
  require_vector(residual, -1, kWhere, "residual");
  require_vector(function_variance, residual.size(0), kWhere, "function_variance");
  require_vector(noise_variance, residual.size(0), kWhere, "noise_variance");
  if (!at::isfinite(residual).all().item<bool>())
    throw std::invalid_argument(std::string(kWhere) + ": residual must be finite");
  for (const auto& [tensor, name] : {std::pair{&function_variance, "function_variance"},
                                     std::pair{&noise_variance, "noise_variance"}})
    if (!(at::isfinite(*tensor) & (*tensor >= 0.0)).all().item<bool>())
      throw std::invalid_argument(std::string(kWhere) + ": " + name + " must be finite and >= 0");
  if (!((function_variance + noise_variance) > 0.0).all().item<bool>())
    throw std::invalid_argument(std::string(kWhere) +
                                ": function_variance + noise_variance must be > 0 at every point");
}

}  // namespace

double inflation_log_likelihood(const ScoredResiduals& scored, double factor) {
  const at::Tensor variance = factor * scored.function_variance + scored.noise_variance;
  return -0.5 * (at::log(variance) + scored.residual.square() / variance).sum().item<double>();
}

double inflated_coverage(const ScoredResiduals& scored, double factor, double level) {
  const at::Tensor variance = factor * scored.function_variance + scored.noise_variance;
  const at::Tensor inside = at::erf(scored.residual.abs() / at::sqrt(2.0 * variance)) <= level;
  return inside.to(at::kDouble).mean().item<double>();
}

ScoredResiduals pooled(const std::vector<ScoredResiduals>& experiments) {
  if (experiments.empty()) throw std::invalid_argument(std::string(kWhere) + ": no residuals");
  std::vector<at::Tensor> residual, function_variance, noise_variance;
  for (const ScoredResiduals& scored : experiments) {
    residual.push_back(scored.residual);
    function_variance.push_back(scored.function_variance);
    noise_variance.push_back(scored.noise_variance);
  }
  return {at::cat(residual), at::cat(function_variance), at::cat(noise_variance)};
}

VarianceInflationFit fit_variance_inflation(const ScoredResiduals& scored, double lower) {
  require_residuals(scored);
  if (!(lower > 0.0 && lower <= kMaxVarianceInflation))
    throw std::invalid_argument(std::string(kWhere) + ": lower must be in (0, " +
                                util::format_significant(kMaxVarianceInflation, 4) + "] (got " +
                                util::format_significant(lower, 4) + ")");
  const auto negative = [&](double log10_factor) {
    return -inflation_log_likelihood(scored, std::pow(10.0, log10_factor));
  };
  const double low = std::log10(lower), high = std::log10(kMaxVarianceInflation);
  const double best = util::minimise_on_grid(negative, low, std::max(low, high), 0.01);
  VarianceInflationFit fit;
  fit.factor = std::min(kMaxVarianceInflation, std::max(lower, std::pow(10.0, best)));
  fit.log_likelihood = inflation_log_likelihood(scored, fit.factor);
  fit.plain_log_likelihood = inflation_log_likelihood(scored, 1.0);
  fit.points = scored.residual.size(0);
  return fit;
}

}  // namespace bhpm::gp
