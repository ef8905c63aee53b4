#include "solve/refinement_study.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "gp/linear_mean.h"
#include "gp/rbf_kernel.h"
#include "pde/initial_condition.h"
#include "solve/spectral_ensemble.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::solve {

gp::ConditionedGp heat_operator_prior() {
  auto mean = std::make_shared<gp::LinearMeanImpl>(gp::LinearMeanOptions{3});
  mean->set_weight(at::tensor({0.0, 0.0, 0.1}, at::kDouble));
  // 0.1^2 exp(-|v - v'|^2) = s^2 exp(-|v - v'|^2 / (2 l^2)) with l = 1/sqrt(2).
  auto kernel = std::make_shared<gp::RbfKernelImpl>(gp::RbfKernelOptions{3, std::sqrt(0.5), 0.01});
  for (at::Tensor& p : mean->parameters()) p.requires_grad_(false);
  for (at::Tensor& p : kernel->parameters()) p.requires_grad_(false);
  return gp::ConditionedGp(mean, kernel, at::zeros({1, 3}, at::kDouble),
                           at::zeros({1}, at::kDouble));
}

void validate(const RefinementStudyOptions& options) {
  const std::string owner = "refinement study";
  util::require_option(!options.tolerances.empty(), owner, "tolerances",
                       "must be positive and decreasing", "[]");
  for (std::size_t r = 0; r < options.tolerances.size(); ++r) {
    const double tolerance = options.tolerances[r];
    util::require_option(std::isfinite(tolerance) && tolerance > 0.0 &&
                             (r == 0 || tolerance < options.tolerances[r - 1]),
                         owner, "tolerances", "must be positive and decreasing",
                         util::option_value(tolerance) + " at position " + std::to_string(r));
  }
  util::require_at_least(options.samples, 1, owner, "samples");
  util::require_option(options.grid_points >= 4 && options.grid_points % 2 == 0, owner,
                       "grid_points", "must be even and >= 4",
                       util::option_value(options.grid_points));
  util::require_positive(options.t_end, owner, "t_end");
  util::require_positive(options.dt, owner, "dt");
  util::require_unit_interval(options.solver_tolerance, owner, "solver_tolerance");
  util::validate_nested(owner, "refinement.", [&] { validate(options.refinement); });
}

RefinementStudy run_refinement_study(const RefinementStudyOptions& options,
                                     const std::function<void(const std::string&)>& progress) {
  validate(options);
  const pde::PeriodicGrid grid(-M_PI, M_PI, options.grid_points);
  const at::Tensor u0 = pde::initial_condition_from_expression(grid, "sin(x)", "u0");
  pde::SolveOptions solve;
  solve.t_end = options.t_end;
  solve.output_dt = options.t_end / static_cast<double>(options.grid_points - 1);
  solve.stepper.dt = options.dt;
  solve.tolerance = options.solver_tolerance;
  StepCount stage_steps;  // of the current stage's solves
  const EnsembleSolver solver = counting_steps(
      [&](std::shared_ptr<const gp::FunctionSamples> samples) {
        return solve_spectral_ensemble(grid, samples, u0, solve);
      },
      stage_steps);
  const auto inputs_of = [&](const at::Tensor& u) { return spectral_root_inputs(grid, u, 3); };

  const auto stages = static_cast<std::int64_t>(options.tolerances.size());
  const std::int64_t count = options.samples;
  RefinementStudy study;
  study.tolerances = options.tolerances;
  study.x = grid.x();
  study.solutions =
      at::empty({stages, count, options.grid_points, options.grid_points}, at::kDouble);
  study.relative_rmse = at::full({stages, count}, NAN, at::kDouble);
  study.conditioning_points = at::zeros({stages, count}, at::kLong);
  study.expected_variance = at::full({stages, count}, NAN, at::kDouble);
  study.converged = at::zeros({stages, count}, at::kBool);
  study.steps = at::zeros({stages}, at::kLong);
  study.rejected_steps = at::zeros({stages}, at::kLong);

  std::vector<gp::ConditionedGp> current(static_cast<std::size_t>(count), heat_operator_prior());
  for (std::int64_t r = 0; r < stages; ++r) {
    RefinementOptions stage = options.refinement;
    stage.tolerance = options.tolerances[static_cast<std::size_t>(r)];
    stage_steps = {};
    const std::vector<RefinedSample> refined =
        refine_operator_samples(current, solver, inputs_of, stage);
    study.steps[r] = stage_steps.steps;
    study.rejected_steps[r] = stage_steps.rejected_steps;
    for (std::int64_t s = 0; s < count; ++s) {
      const RefinedSample& member = refined[static_cast<std::size_t>(s)];
      current[static_cast<std::size_t>(s)] = member.operator_sample;
      study.solutions[r][s].copy_(member.solution);
      study.conditioning_points[r][s] = member.operator_sample.size();
      study.converged[r][s] = member.converged;
      if (!member.rounds.empty())
        study.expected_variance[r][s] = member.rounds.back().expected_variance;
      if (r > 0)
        study.relative_rmse[r][s] = (study.solutions[r][s] - study.solutions[r - 1][s]).norm() /
                                    study.solutions[r][s].norm();
      if (progress) {
        char line[160];
        std::snprintf(line, sizeof line, "delta_c = %.0e, sample %lld: n_c = %lld, L_c = %.3e",
                      stage.tolerance, static_cast<long long>(s),
                      static_cast<long long>(member.operator_sample.size()),
                      study.expected_variance[r][s].item<double>());
        progress(line + (member.failure.empty() ? "" : " (diverged: " + member.failure + ")"));
      }
    }
  }
  study.t = pde::output_times(solve);
  for (const gp::ConditionedGp& member : current)
    study.conditioning_inputs.push_back(member.inputs());
  return study;
}

std::string refinement_table(const RefinementStudy& study) {
  std::ostringstream table;
  const std::int64_t count = study.relative_rmse.size(1);
  table << "delta_c   relative RMSE against the previous tolerance (n_c) per sample\n";
  for (std::size_t r = 0; r < study.tolerances.size(); ++r) {
    char cell[64];
    std::snprintf(cell, sizeof cell, "%-8.0e", study.tolerances[r]);
    table << cell;
    const auto row = static_cast<std::int64_t>(r);
    for (std::int64_t s = 0; s < count; ++s) {
      const double value = study.relative_rmse[row][s].item<double>();
      const auto points =
          static_cast<long long>(study.conditioning_points[row][s].item<std::int64_t>());
      if (std::isnan(value))
        std::snprintf(cell, sizeof cell, "  %9s (%3lld)", "-", points);
      else
        std::snprintf(cell, sizeof cell, "  %9.2e (%3lld)", value, points);
      table << cell;
    }
    table << "\n";
  }
  return table.str();
}

}  // namespace bhpm::solve
