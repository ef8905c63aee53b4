#include "eval/weak_form_distillation.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "util/number_format.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::eval {

namespace {

/// b is at most T / 2.2: a support of 0.91 T, the widest the window holds with a margin.
constexpr double kTimeFraction = 1 / 2.2;

/// A width is fitted only with at least this many test functions per library term: fewer
/// leave the folds of the threshold's cross-validation with about as many rows as terms.
constexpr std::int64_t kRowsPerTerm = 4;

/// The whole system at one width: rows of every experiment whose window holds a test
/// function, and each row's fold (its experiment; with one experiment, the half of the
/// x-centres it lies in). No rows when none fits, or one experiment's fit at one x-centre.
struct StackedSystem {
  at::Tensor target, columns, fold;
  std::int64_t experiments = 0;
  std::int64_t folds = 0;
};

StackedSystem stacked_system(const std::vector<WeakExperiment>& experiments, double space,
                             double tau, double time_factor) {
  std::vector<at::Tensor> targets, columns, folds;
  StackedSystem stacked;
  at::Tensor only_centres;
  for (const WeakExperiment& experiment : experiments) {
    const WeakSystem system = experiment.system(
        {space, std::min(time_factor * tau, experiment.duration * kTimeFraction)});
    if (system.rows() == 0) continue;
    targets.push_back(system.target);
    columns.push_back(system.columns);
    folds.push_back(at::full({system.rows()}, stacked.experiments, at::kLong));
    only_centres = system.centres.select(1, 0);
    ++stacked.experiments;
  }
  if (stacked.experiments == 0) {
    stacked.target = at::zeros({0}, at::kDouble);
    return stacked;
  }
  stacked.target = at::cat(targets);
  stacked.columns = at::cat(columns);
  stacked.fold = at::cat(folds);
  stacked.folds = stacked.experiments;
  if (stacked.experiments == 1) {  // the two halves of the centres by x
    const double middle = 0.5 * (only_centres.min() + only_centres.max()).item<double>();
    stacked.fold = (only_centres > middle).to(at::kLong);
    stacked.folds = 2;
    if (stacked.fold.max().item<std::int64_t>() == 0) stacked.target = at::zeros({0}, at::kDouble);
  }
  return stacked;
}

}  // namespace

void validate(const WeakFormOptions& options) {
  const std::string owner = "weak-form distillation";
  util::require_option(!options.space_factors.empty(), owner, "space_factors", "must not be empty",
                       "[]");
  for (double factor : options.space_factors)
    util::require_option(std::isfinite(factor) && factor > 0, owner, "space_factors",
                         "must each be > 0", util::option_value(factor));
  util::require_positive(options.time_factor, owner, "time_factor");
  util::require_at_least(options.samples, 2, owner, "samples");
}

WeakFormDistillation weak_form_distillation(const std::vector<pde::GridField>& fields,
                                            const std::vector<WeakTerm>& library,
                                            const WeakFormOptions& options) {
  std::vector<WeakExperiment> experiments;
  for (const pde::GridField& field : fields)
    experiments.push_back({(field.t[-1] - field.t[0]).item<double>(),
                           [&field, &library](const TestFunctionWidths& widths) {
                             return weak_system(field, library, widths);
                           }});
  std::vector<std::string> names;
  for (const WeakTerm& term : library) names.push_back(term.name);
  WeakFormDistillation result = fit_weak_systems(experiments, names, field_scales(fields), options);
  result.library = library;
  return result;
}

WeakFormDistillation fit_weak_systems(const std::vector<WeakExperiment>& experiments,
                                      const std::vector<std::string>& names,
                                      const FieldScales& scales, const WeakFormOptions& options) {
  validate(options);
  WeakFormDistillation result;
  result.scales = scales;
  result.time_factor = options.time_factor;
  const auto terms = static_cast<std::int64_t>(names.size());
  std::vector<StackedSystem> systems;
  for (double factor : options.space_factors) {
    StackedSystem system = stacked_system(experiments, factor * result.scales.length,
                                          result.scales.time, options.time_factor);
    const bool usable = system.target.size(0) >= kRowsPerTerm * terms &&
                        (system.experiments >= 2 || experiments.size() == 1);
    result.widths.push_back(
        {factor, factor * result.scales.length, system.target.size(0), system.experiments, usable});
    if (usable) systems.push_back(std::move(system));
  }
  if (systems.empty())
    throw WeakFormUnfitted(
        "no test-function width has at least " + std::to_string(kRowsPerTerm) +
        " test functions per library term (" + std::to_string(kRowsPerTerm * terms) +
        ") in two or more experiments: the windows are too short for the fields' "
        "own length scale ell = " +
        util::format_significant(result.scales.length, 3));
  const auto used = static_cast<std::int64_t>(systems.size());
  result.coefficients = at::zeros({options.samples, terms}, at::kDouble);
  for (std::int64_t k = 0; k < used; ++k) {
    const StackedSystem& system = systems[static_cast<std::size_t>(k)];
    const at::Tensor members = at::arange(k, options.samples, used, at::kLong);
    if (members.size(0) == 0) continue;
    SparseRegressionOptions regression = options.regression;
    regression.resample_folds = options.resample_experiments && system.experiments >= 2;
    regression.seed = util::derive_seed(options.regression.seed, "weak_form_width",
                                        static_cast<std::uint64_t>(k));
    result.resampled = result.resampled || regression.resample_folds;
    const SparseFit fit =
        sparse_regression(system.columns, system.target.unsqueeze(0).expand({members.size(0), -1}),
                          system.fold, regression);
    result.coefficients.index_copy_(0, members, fit.coefficients);
  }
  for (std::int64_t j = 0; j < terms; ++j)
    result.terms.push_back(
        summarise_term(names[static_cast<std::size_t>(j)], result.coefficients.select(1, j)));
  return result;
}

std::optional<WeakFormDistillation> fit_weak_form(const std::vector<pde::GridField>& fields,
                                                  int max_order, int degree,
                                                  const WeakFormOptions& options,
                                                  std::string& why) {
  try {
    return weak_form_distillation(fields, weak_library(max_order, degree), options);
  } catch (const WeakFormUnfitted& error) {
    why = error.what();
    return std::nullopt;
  }
}

std::string weak_form_settings(const WeakFormDistillation& w, std::int64_t experiments,
                               std::int64_t x_points, std::int64_t t_points) {
  std::string widths;
  for (const WeakFormWidth& width : w.widths)
    widths += (widths.empty() ? "" : ", ") + util::format_significant(width.factor, 3) + " ell (" +
              std::to_string(width.rows) + " test functions in " +
              std::to_string(width.experiments) + " experiment(s)" +
              (width.used ? ")" : ": too few, not fitted)");
  return std::to_string(w.coefficients.size(0)) + " fits on the " + std::to_string(experiments) +
         " training leaves' u (" + std::to_string(x_points) + " x " + std::to_string(t_points) +
         " grids over their windows), derivatives moved onto test functions of half-width a = " +
         widths + " in x (ell = " + util::format_significant(w.scales.length, 3) +
         ") and b = min(" + util::format_significant(w.time_factor, 3) +
         " tau, T / 2.2) in t (tau = " + util::format_significant(w.scales.time, 3) + ")" +
         (w.resampled ? "; each fit on its own bootstrap resample of the experiments" : "");
}

void attach_truth(WeakFormDistillation& weak, const Distillation& pointwise) {
  if (!pointwise.has_truth) return;
  for (const DistilledTerm& term : pointwise.terms) {
    if (std::abs(term.truth) <= 1e-8) continue;
    const bool named = std::any_of(weak.terms.begin(), weak.terms.end(),
                                   [&](const DistilledTerm& w) { return w.name == term.name; });
    if (!named) return;
  }
  for (DistilledTerm& w : weak.terms) {
    w.truth = 0.0;
    for (const DistilledTerm& term : pointwise.terms)
      if (term.name == w.name) w.truth = term.truth;
  }
  weak.has_truth = true;
}

}  // namespace bhpm::eval
