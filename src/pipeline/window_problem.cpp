#include "pipeline/window_problem.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "gp/posterior_mean.h"
#include "model/leaf_data.h"
#include "model/leaf_window.h"
#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "pipeline/operator_scorings.h"
#include "solve/sampled_operator.h"
#include "solve/scattered_statistics.h"
#include "util/number_format.h"

namespace bhpm::pipeline {

namespace {

/// u_t = m(v), the root's posterior mean, as an equation (for the count of conditions).
pde::Equation posterior_mean_equation(const gp::SparseVariationalGpImpl& root) {
  auto mean = std::make_shared<const gp::PosteriorMean>(root);
  const auto dimensions = static_cast<std::size_t>(mean->dimensions());
  pde::Equation equation;
  equation.name = "posterior mean";
  equation.nonlinear = std::make_shared<solve::SampledOperatorTerm>(
      std::move(mean), std::vector<double>(dimensions, 0.0));
  return equation;
}

/// The conditions the posterior mean needs at the window's u0; a mean that is ill-posed
/// there is refused naming the experiment ("training experiment 2").
pde::ConditionCount counted_conditions(const model::LeafWindow& start,
                                       const gp::SparseVariationalGpImpl& root,
                                       const std::string& name) {
  try {
    return pde::conditions_needed(start.grid, posterior_mean_equation(root), start.u0);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(name +
                                "'s window: the root's posterior mean at its u0: " + error.what());
  }
}

/// Experiment `experiment` of `measured`, fitted by `leaves`, on its window; `name` says
/// which it is in the description and in messages.
ExperimentWindow experiment_window(const gp::SparseVariationalGpImpl& root,
                                   const config::RunConfig& config,
                                   const model::LeafModelImpl& leaves,
                                   const std::vector<pde::MeasuredExperiment>& measured,
                                   std::int64_t experiment, const std::string& name) {
  const std::vector<nn::DomainBox> boxes = model::domain_boxes(measured);
  const at::NoGradGuard no_grad;
  // u0 first (no conditions), then as many conditions as the mean operator needs there.
  const model::LeafWindow start =
      model::leaf_window(leaves, boxes, experiment, pde::kDefaultIntervals, {0, 0});
  const pde::ConditionCount needed = counted_conditions(start, root, name);
  const model::LeafWindow window =
      model::leaf_window(leaves, boxes, experiment, pde::kDefaultIntervals, needed);

  auto problem = std::make_shared<solve::WindowProblem>();
  problem->grid = window.grid;
  problem->u0 = window.u0;
  problem->conditions = window.conditions;
  const double outputs =
      std::max(1.0, std::round(window.duration / config.simulate.solve.output_dt));
  problem->solve.t_end = window.duration;
  problem->solve.output_dt = window.duration / outputs;
  const nn::DomainBox& box = boxes[static_cast<std::size_t>(experiment)];
  ExperimentWindow result;
  result.problem = problem;
  result.t_start = box.t_min;
  const pde::MeasuredExperiment& own = measured[static_cast<std::size_t>(experiment)];
  result.x = own.x;
  result.t = own.t;
  result.u = own.u;
  result.description = name + " on its window [" + util::format_number(box.x_min) + ", " +
                       util::format_number(box.x_max) + "] x [" + util::format_number(box.t_min) +
                       ", " + util::format_number(box.t_max) +
                       "], u0 and boundary data from its leaf (" +
                       pde::describe(window.conditions) + ")";
  return result;
}

}  // namespace

ExperimentWindow training_window(const std::string& run_dir, const std::string& data,
                                 const TrainedRun& run, std::int64_t experiment) {
  if (!std::filesystem::exists(data))
    throw std::invalid_argument(
        "predict --window-from: the training experiments' windows are read from " + data +
        ", which does not exist");
  const std::vector<pde::MeasuredExperiment> measured = pde::read_measured_set(data, "train");
  const auto count = static_cast<std::int64_t>(measured.size());
  if (experiment < 0 || experiment >= count)
    throw std::invalid_argument("predict --window-from: experiment " + std::to_string(experiment) +
                                " is not among the " + std::to_string(count) +
                                " training experiments of " + data);
  const model::LeafModel leaves = trained_leaves(run_dir, run.config, count);
  ExperimentWindow window = training_window(*run.root, run.config, *leaves, measured, experiment);
  window.noise_variance =
      measurement_noise_variance(data, measured[static_cast<std::size_t>(experiment)].sigma,
                                 window.u, leaves->noise_scale()[experiment].item<double>());
  return window;
}

ExperimentWindow training_window(const gp::SparseVariationalGpImpl& root,
                                 const config::RunConfig& config,
                                 const model::LeafModelImpl& leaves,
                                 const std::vector<pde::MeasuredExperiment>& measured,
                                 std::int64_t experiment) {
  return experiment_window(root, config, leaves, measured, experiment,
                           "training experiment " + std::to_string(experiment));
}

ExperimentWindow held_out_window(const std::string& data, const TrainedRun& run,
                                 std::int64_t experiment, const model::TrainingCallback& progress) {
  const std::string where = "predict --window-from test/" + std::to_string(experiment) + ": ";
  if (!std::filesystem::exists(data))
    throw std::invalid_argument(where + "the held-out experiments are read from " + data +
                                ", which does not exist");
  if (pde::dataset_experiments(data, "test") == 0)
    throw std::invalid_argument(where + data +
                                " holds no held-out experiments (no test set: `bhpm import "
                                "--hold-out` or data.test_experiments keeps some back)");
  const std::vector<pde::MeasuredExperiment> measured = pde::read_measured_set(data, "test");
  const auto count = static_cast<std::int64_t>(measured.size());
  if (experiment < 0 || experiment >= count)
    throw std::invalid_argument(where + "experiment " + std::to_string(experiment) +
                                " is not among the " + std::to_string(count) +
                                " held-out experiments of " + data);
  const std::vector<pde::MeasuredExperiment> own = {measured[static_cast<std::size_t>(experiment)]};
  config::RunConfig on_cpu = run.config;
  on_cpu.compute.device = at::kCPU;
  const HeldOutFit fit = fit_leaves_keeping_back(
      own, 1, data + ":/test/" + std::to_string(experiment), on_cpu, progress);
  const std::string name = "held-out experiment " + std::to_string(experiment);
  ExperimentWindow window = experiment_window(*run.root, run.config, *fit.leaves, own, 0, name);
  window.x = fit.kept_back.x[0];
  window.t = fit.kept_back.t[0];
  window.u = fit.kept_back.u[0];
  const at::Tensor& sigma = own[0].sigma;
  window.noise_variance = measurement_noise_variance(
      data,
      sigma.defined() ? sigma.masked_select(model::kept_back_mask(sigma.size(0), kKeepBackEvery))
                      : at::Tensor(),
      window.u, fit.leaves->noise_scale()[0].item<double>());
  window.held_back = true;
  window.description += ", the leaf fitted to " + std::to_string(fit.fitted.points()) + " of its " +
                        std::to_string(own[0].x.size(0)) + " measurements";
  return window;
}

std::shared_ptr<const solve::WindowProblem> domain_problem(const gp::SparseVariationalGpImpl& root,
                                                           const config::SimulateConfig& simulate,
                                                           const at::Tensor& u0) {
  auto problem = std::make_shared<solve::WindowProblem>();
  problem->grid = simulate.bounded_grid();
  problem->u0 = u0;
  problem->conditions = simulate.conditions;
  problem->solve.t_end = simulate.solve.t_end;
  problem->solve.output_dt = simulate.solve.output_dt;
  const std::string where = "predict on the bounded domain [" +
                            util::format_number(simulate.x_min) + ", " +
                            util::format_number(simulate.x_max) + "]: ";
  const pde::Equation mean = posterior_mean_equation(root);
  try {
    const pde::ConditionCount needed = pde::conditions_needed(problem->grid, mean, u0);
    pde::check_conditions(problem->conditions, needed, mean.order(),
                          "the root's posterior mean at u0");
    pde::require_compatible(problem->grid, problem->conditions, u0,
                            problem->solve.compatibility_tolerance);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(where + error.what());
  }
  return problem;
}

ExperimentProblem bounded_experiment_problem(const gp::SparseVariationalGpImpl& root,
                                             const config::SimulateConfig& simulate,
                                             const pde::ExperimentSet& set,
                                             std::int64_t experiment) {
  const std::string where =
      "experiment " + std::to_string(experiment) + " of set '" + set.name + "': ";
  if (set.conditions.empty())
    throw std::invalid_argument(where +
                                "a periodic solution grid; on a bounded domain "
                                "(domain.boundary = \"conditions\") start from a "
                                "bounded set's experiment, --ic EXPR or --ic-file U0.csv");
  if (set.conditions != pde::describe(simulate.conditions))
    throw std::invalid_argument(where + "simulated under " + set.conditions +
                                ", the configuration gives " + pde::describe(simulate.conditions));
  const at::Tensor x = simulate.bounded_grid().x();
  const auto times = std::llround(simulate.solve.t_end / simulate.solve.output_dt) + 1;
  const double length = simulate.x_max - simulate.x_min;
  if (set.x.size(0) != x.size(0) || !at::allclose(set.x, x, 0.0, 1e-9 * length) ||
      set.t.size(0) != times || std::abs(set.t[-1].item<double>() - simulate.solve.t_end) > 1e-9)
    throw std::invalid_argument(where + "its grid (" + std::to_string(set.x.size(0)) + " points, " +
                                std::to_string(set.t.size(0)) +
                                " times) is not the configuration's (solver.intervals + "
                                "1 = " +
                                std::to_string(x.size(0)) + " points on [x_min, x_max], " +
                                std::to_string(times) + " times to domain.t_end)");
  if (experiment < 0 || experiment >= set.u.size(0))
    throw std::invalid_argument(where + "the set holds " + std::to_string(set.u.size(0)) +
                                " experiments");
  const at::Tensor truth = set.u[experiment];
  ExperimentProblem stored;
  stored.problem.window = domain_problem(root, simulate, truth[0].clone());
  stored.truth = truth;
  return stored;
}

at::Tensor measurement_noise_variance(const std::string& data_path, const at::Tensor& sigma,
                                      const at::Tensor& u, double leaf_sigma) {
  if (sigma.defined()) return sigma.to(at::kDouble).square();
  const bool simulated = pde::read_dataset_metadata(data_path).format_version == 1;
  const double noise = simulated ? pde::read_experiment_set(data_path, "train").noise : leaf_sigma;
  return at::full_like(u, noise * noise, at::kDouble);
}

solve::MeasurementComparison measurement_comparison(const ExperimentWindow& window,
                                                    const solve::EnsembleSolution& ensemble,
                                                    const solve::EnsembleStatistics& statistics) {
  return solve::compare_with_measurements(statistics, window.problem->grid, ensemble.t, window.x,
                                          window.t - window.t_start, window.u,
                                          window.noise_variance);
}

std::string describe(const solve::MeasurementComparison& comparison, bool held_back) {
  return std::to_string(comparison.points) + (held_back ? " held-back" : "") +
         " measurements: relative L2 error of the mean " +
         util::format_significant(comparison.of_u.relative_l2, 4) + ", RMSE " +
         util::format_significant(comparison.of_u.rmse, 4) + ", inside the 95 % band of u " +
         util::format_percent(comparison.of_u.band_coverage) + ", of a measurement " +
         util::format_percent(comparison.measurement_band_coverage);
}

}  // namespace bhpm::pipeline
