#include "pipeline/operator_scorings.h"

#include <ATen/ATen.h>

#include <cstdio>
#include <stdexcept>

#include "config/dataset_equation.h"
#include "eval/held_out_operator_data.h"
#include "eval/metrics_json.h"
#include "eval/point_subset.h"
#include "eval/root_predictive.h"
#include "io/atomic_file.h"
#include "model/bhpm_training.h"
#include "model/root_data.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"

namespace bhpm::pipeline {

namespace {

eval::PredictiveNoise predictive_noise(const ScoredSet& scored) {
  return scored.function_only ? eval::PredictiveNoise::kExcluded : eval::PredictiveNoise::kIncluded;
}

/// The number of experiments to score: N when asked (refused beyond `available`), else all.
std::int64_t scored_count(const ScoredSet& scored, std::int64_t available) {
  if (scored.experiments > available)
    throw std::invalid_argument(
        scored.data_path + ":/" + scored.set_name + ": " + std::to_string(scored.experiments) +
        " experiments requested, the set holds " + std::to_string(available));
  return scored.experiments > 0 ? scored.experiments : available;
}

}  // namespace

/// The root against the true operator on the set's stored grids (paper section 3).
Scoring truth_scoring(const ScoredSet& scored, const gp::SparseVariationalGpImpl& root) {
  const pde::Equation equation = config::read_dataset_equation(scored.data_path);
  pde::ExperimentSet set = pde::read_experiment_set(scored.data_path, scored.set_name);
  set.u = set.u.slice(0, 0, scored_count(scored, set.u.size(0)));
  const int order = static_cast<int>(root.kernel()->dimensions() - 1);
  const eval::OperatorTestData test =
      eval::held_out_operator_data(set, equation, order, scored.max_points);
  const gp::MarginalNormal predictive =
      eval::root_predictive(root, test.inputs, predictive_noise(scored));
  return {
      eval::operator_metrics(predictive.mean, predictive.variance, test.target),
      eval::rmse_per_experiment(predictive.mean, test.target, test.experiment, set.u.size(0)),
      {{"target", "the true operator on the stored grids"}, {"true_equation", equation.describe()}},
      equation.describe()};
}

HeldOutFit fit_scored_leaves(const ScoredSet& scored, const config::RunConfig& config,
                             const model::TrainingCallback& progress) {
  const auto measured = pde::read_measured_set(scored.data_path, scored.set_name);
  const std::int64_t count = scored_count(scored, static_cast<std::int64_t>(measured.size()));
  return fit_leaves_keeping_back(measured, count, scored.data_path + ":/" + scored.set_name, config,
                                 progress);
}

HeldOutFit fit_leaves_keeping_back(const std::vector<pde::MeasuredExperiment>& measured,
                                   std::int64_t count, const std::string& source,
                                   const config::RunConfig& config,
                                   const model::TrainingCallback& progress) {
  const model::LeafData data = model::leaf_data_from_measurements(
      measured, count, model::fewest_points(measured, count), source);
  auto [fitted, kept_back] =
      model::keep_back_points(model::on_device(data, config.compute.device), kKeepBackEvery);
  if (progress)
    std::fprintf(stderr, "fitting %lld held-out leaves to %lld points each (%lld kept back)\n",
                 static_cast<long long>(count), static_cast<long long>(fitted.points()),
                 static_cast<long long>(kept_back.points()));
  model::LeafModel leaves = model::fit_held_out_leaves(
      fitted, config.leaves.model, config.leaves.training, config.simulate.seed, progress);
  return {leaves, fitted, kept_back};
}

/// The root against the held-out leaves' (v, u_t) at their fitted points.
Scoring leaf_target_scoring(const ScoredSet& scored, const gp::SparseVariationalGpImpl& root,
                            const HeldOutFit& fit) {
  const int order = static_cast<int>(root.kernel()->dimensions() - 1);
  const model::RootData rows = model::root_data_detached(*fit.leaves, fit.fitted, order);
  at::Tensor experiment =
      at::arange(fit.fitted.leaves(), at::kLong).repeat_interleave(fit.fitted.points());
  at::Tensor inputs = rows.inputs.cpu(), target = rows.targets.cpu();
  if (scored.max_points > 0 && scored.max_points < rows.points()) {
    const at::Tensor keep = eval::evenly_spread_subset(rows.points(), scored.max_points);
    inputs = inputs.index_select(0, keep);
    target = target.index_select(0, keep);
    experiment = experiment.index_select(0, keep);
  }
  const gp::MarginalNormal predictive =
      eval::root_predictive(root, inputs, predictive_noise(scored));
  return {eval::operator_metrics(predictive.mean, predictive.variance, target),
          eval::rmse_per_experiment(predictive.mean, target, experiment, fit.fitted.leaves()),
          {{"target", "held-out leaves' u_t (truth-free: phase 1 leaves of the scored set)"}},
          ""};
}

/// The held-out leaves' predictive against the measurements kept back from their fit.
Scoring kept_back_scoring(const HeldOutFit& fit) {
  const gp::MarginalNormal on_device =
      model::leaf_predictive(*fit.leaves, fit.fitted, fit.kept_back);
  const gp::MarginalNormal predictive{on_device.mean.cpu(), on_device.variance.cpu()};
  const at::Tensor measured = fit.kept_back.u.reshape({-1}).cpu();
  const at::Tensor experiment =
      at::arange(fit.kept_back.leaves(), at::kLong).repeat_interleave(fit.kept_back.points());
  return {eval::operator_metrics(predictive.mean, predictive.variance, measured),
          eval::rmse_per_experiment(predictive.mean, measured, experiment, fit.kept_back.leaves()),
          {{"target", "measurements kept back from the held-out leaves' fit"},
           {"predictive", "u_leaf + sigma_leaf^2 + last-layer Laplace variance"}},
          ""};
}

void write_scoring(const std::string& path, const Scoring& scoring,
                   std::vector<std::pair<std::string, std::string>> context) {
  context.insert(context.end(), scoring.context.begin(), scoring.context.end());
  io::write_text_atomically(path,
                            eval::metrics_json(scoring.metrics, context, scoring.per_experiment));
}

}  // namespace bhpm::pipeline
