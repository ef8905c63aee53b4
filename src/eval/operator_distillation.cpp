#include "eval/operator_distillation.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "eval/root_predictive.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::eval {

namespace {

void require(bool ok, const std::string& rule) {
  if (!ok) throw std::invalid_argument("distill: " + rule);
}

}  // namespace

void validate(const DistillOptions& options) {
  util::require_option(options.max_unexplained > 0.0 && options.max_unexplained < 1.0,
                       "distillation", "max_unexplained", "must be in (0, 1)",
                       util::option_value(options.max_unexplained));
}

namespace {

void check_inputs(const DistillationInputs& in, const DistillOptions& options) {
  require(in.inputs.defined() && in.inputs.dim() == 2, "inputs must be [P, D]");
  const std::int64_t points = in.inputs.size(0);
  require(points > 0, "needs at least one point");
  require(in.samples.defined() && in.samples.dim() == 2 && in.samples.size(1) == points,
          "samples must be [S, P] with the inputs' P");
  require(in.samples.size(0) >= 2,
          "needs at least 2 samples (got " + std::to_string(in.samples.size(0)) + ")");
  require(at::isfinite(in.samples).all().item<bool>(),
          "an operator sample is not finite at a point");
  for (const at::Tensor* vector : {&in.mean, &in.variance, &in.fold})
    require(vector->defined() && vector->dim() == 1 && vector->size(0) == points,
            "mean, variance and fold must be [P]");
  require(!in.truth.defined() || (in.truth.dim() == 1 && in.truth.size(0) == points),
          "truth must be [P] when given");
  validate(options);
}

/// The p-quantile of `values` by linear interpolation between order statistics.
double quantile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const double position = p * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

/// The distilled equation's coefficients [J]: the median of the kept terms, 0 elsewhere.
at::Tensor equation_coefficients(const Distillation& d) {
  std::vector<double> xi;
  for (const DistilledTerm& term : d.terms) xi.push_back(term.kept() ? term.median : 0.0);
  return at::tensor(xi, at::kDouble);
}

/// 1 - sum (mean - g)^2 / sum (mean - <mean>)^2 for values g [P] of another function.
double explained_fraction(const at::Tensor& mean, const at::Tensor& g) {
  const double total = (mean - mean.mean()).square().sum().item<double>();
  const double residual = (mean - g).square().sum().item<double>();
  return total > 0 ? 1.0 - residual / total : (residual == 0 ? 1.0 : 0.0);
}

void score_equation(const DistillationInputs& in, const at::Tensor& theta, Distillation& d) {
  const at::Tensor equation = at::mv(theta, equation_coefficients(d));
  d.explained = explained_fraction(in.mean, equation);
  if (in.truth.defined()) d.truth_explained = explained_fraction(in.mean, in.truth);
  d.misfit_rms = (in.mean - equation).square().mean().sqrt().item<double>();
  d.posterior_std_rms = in.variance.clamp_min(0).mean().sqrt().item<double>();
}

/// "1.002 [0.995, 1.010]" with 4 significant digits.
std::string coefficient_text(double median, double lower, double upper) {
  return util::format_significant(median, 4) + " [" + util::format_significant(lower, 4) + ", " +
         util::format_significant(upper, 4) + "]";
}

/// f_s(v_p) [S, P] of every sample at every point, in chunks of points that keep the
/// features of a chunk ([S c, F]) near 64 MiB.
at::Tensor samples_at(const gp::PathwiseSamples& samples, std::int64_t features,
                      const at::Tensor& v) {
  const std::int64_t S = samples.count();
  const std::int64_t chunk = std::max<std::int64_t>(1, (std::int64_t{1} << 23) / (S * features));
  std::vector<at::Tensor> parts;
  for (std::int64_t start = 0; start < v.size(0); start += chunk) {
    const at::Tensor rows = v.slice(0, start, std::min(start + chunk, v.size(0)));
    parts.push_back(samples.evaluate(rows.unsqueeze(0).expand({S, rows.size(0), rows.size(1)})));
  }
  return at::cat(parts, 1);
}

}  // namespace

DistilledTerm summarise_term(const std::string& name, const at::Tensor& column) {
  const at::Tensor contiguous = column.contiguous();
  const std::vector<double> values(contiguous.data_ptr<double>(),
                                   contiguous.data_ptr<double>() + contiguous.numel());
  DistilledTerm term;
  term.name = name;
  term.inclusion = static_cast<double>(std::count_if(values.begin(), values.end(),
                                                     [](double xi) { return xi != 0.0; })) /
                   static_cast<double>(values.size());
  term.median = quantile(values, 0.5);
  term.lower = quantile(values, 0.025);
  term.upper = quantile(values, 0.975);
  return term;
}

DistillationInputs root_distillation_inputs(const gp::SparseVariationalGpImpl& root,
                                            const at::Tensor& v, const at::Tensor& fold,
                                            std::int64_t samples,
                                            const gp::PathwiseOptions& pathwise) {
  require(samples >= 2, "needs at least 2 samples (got " + std::to_string(samples) + ")");
  const at::NoGradGuard no_grad;
  const gp::PathwiseSamples draws(root, samples, pathwise);
  const gp::MarginalNormal posterior = root_predictive(root, v, PredictiveNoise::kExcluded);
  return {v, samples_at(draws, pathwise.features, v), posterior.mean, posterior.variance, fold, {}};
}

Distillation distill_operator(const DistillationInputs& in, const pde::TermLibrary& library,
                              const DistillOptions& options) {
  check_inputs(in, options);
  const at::Tensor theta = library.evaluate(in.inputs);
  require(at::isfinite(theta).all().item<bool>(), "a library term is not finite at a point");
  const SparseFit fit = sparse_regression(theta, in.samples, in.fold, options.regression);

  Distillation d;
  d.library = library;
  d.coefficients = fit.coefficients;
  d.thresholds = fit.thresholds;
  d.max_unexplained = options.max_unexplained;
  for (std::int64_t j = 0; j < library.size(); ++j)
    d.terms.push_back(summarise_term(library.names[j], fit.coefficients.select(1, j)));
  if (in.truth.defined()) {
    d.has_truth = true;
    const at::Tensor truth = least_squares(theta, in.truth.unsqueeze(0))[0];
    for (std::int64_t j = 0; j < library.size(); ++j) d.terms[j].truth = truth[j].item<double>();
  }
  score_equation(in, theta, d);
  return d;
}

std::string distilled_equation(const Distillation& d) {
  return equation_text(d.terms, d.left_hand_side);
}

std::string equation_text(const std::vector<DistilledTerm>& terms,
                          const std::string& left_hand_side) {
  std::string text = left_hand_side + " =";
  bool first = true;
  for (const DistilledTerm& term : terms) {
    if (!term.kept()) continue;
    const bool negative = !first && term.median < 0;
    text += first ? " " : (negative ? " - " : " + ");
    const auto flip = [](double value) { return value == 0.0 ? 0.0 : -value; };
    text += negative ? coefficient_text(-term.median, flip(term.upper), flip(term.lower))
                     : coefficient_text(term.median, term.lower, term.upper);
    if (term.name != "1") text += " " + term.name;
    first = false;
  }
  return first ? text + " 0" : text;
}

std::string distillation_table(const Distillation& d) { return terms_table(d.terms, d.has_truth); }

std::string terms_table(const std::vector<DistilledTerm>& terms, bool has_truth) {
  std::string text = "term            inclusion  median        95 % interval";
  text += has_truth ? "                  truth\n" : "\n";
  for (const DistilledTerm& term : terms) {
    const bool true_term = has_truth && std::abs(term.truth) > 1e-8;
    if (term.inclusion == 0.0 && !true_term) continue;
    char line[160];
    std::snprintf(line, sizeof line, "%-15s %9.2f  %-12s  [%s, %s]", term.name.c_str(),
                  term.inclusion, util::format_significant(term.median, 4).c_str(),
                  util::format_significant(term.lower, 4).c_str(),
                  util::format_significant(term.upper, 4).c_str());
    text += line;
    if (has_truth) text += "  " + util::format_significant(term.truth, 4);
    text += "\n";
  }
  return text;
}

std::string distillation_warning(const Distillation& d) {
  if (!d.too_little_explained()) return "";
  return "warning: the distilled equation explains " + util::format_percent(d.explained) +
         " of the posterior mean's variance on the points (at least " +
         util::format_percent(1.0 - d.max_unexplained) + " is asked for); its misfit, RMS " +
         util::format_significant(d.misfit_rms, 3) + ", is " +
         util::format_significant(d.misfit_rms / std::max(d.posterior_std_rms, 1e-300), 3) +
         " times the posterior's standard deviation: the posterior mean is not a polynomial of "
         "degree " +
         std::to_string(d.library.degree) +
         " on these points, so either the operator is not in the library or the posterior "
         "carries structure the equation leaves out; read the equation as an approximation, "
         "not as the learned physics";
}

}  // namespace bhpm::eval
