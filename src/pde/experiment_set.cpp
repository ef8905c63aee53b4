#include "pde/experiment_set.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::pde {

void validate(const MeasurementOptions& options, std::int64_t grid_values) {
  util::require_option(
      options.n_st >= 1 && options.n_st <= grid_values, "measurements", "n_st",
      "must be in [1, " + std::to_string(grid_values) + "] (the grid's stored times x points)",
      util::option_value(options.n_st));
  util::require_non_negative(options.noise, "measurements", "noise");
}

namespace {

/// Per flat index t_index * n + x_index of a bounded set's grid: the width of x_index's
/// cell, (x_{j+1} - x_{j-1}) / 2 (half cells at the ends), so that points drawn with these
/// weights spread uniformly in x rather than crowd at the ends with the Chebyshev points.
std::vector<double> cell_widths(const at::Tensor& x, std::int64_t times) {
  const at::Tensor grid = x.contiguous();
  const double* p = grid.data_ptr<double>();
  const std::int64_t n = grid.numel();
  std::vector<double> widths;
  widths.reserve(static_cast<std::size_t>(n * times));
  for (std::int64_t t = 0; t < times; ++t)
    for (std::int64_t j = 0; j < n; ++j)
      widths.push_back((p[std::min(j + 1, n - 1)] - p[std::max<std::int64_t>(j - 1, 0)]) / 2.0);
  return widths;
}

}  // namespace

void draw_measurements(ExperimentSet& set, const MeasurementOptions& options, std::uint64_t seed) {
  const std::int64_t experiments = set.u.size(0), times = set.u.size(1), points = set.u.size(2);
  validate(options, times * points);
  const std::vector<double> widths =
      set.conditions.empty() ? std::vector<double>() : cell_widths(set.x, times);
  set.noise = options.noise;
  set.sample_index = at::empty({experiments, options.n_st}, at::kLong);
  at::Tensor noise = at::empty({experiments, options.n_st}, at::kDouble);
  for (std::int64_t e = 0; e < experiments; ++e) {
    util::Rng rng(
        util::derive_seed(seed, set.name + "/measurements", static_cast<std::uint64_t>(e)));
    const auto chosen = widths.empty()
                            ? rng.sample_without_replacement(times * points, options.n_st)
                            : rng.weighted_sample_without_replacement(widths, options.n_st);
    std::int64_t* index = set.sample_index[e].data_ptr<std::int64_t>();
    double* eta = noise[e].data_ptr<double>();
    for (std::int64_t j = 0; j < options.n_st; ++j) {
      index[j] = chosen[static_cast<std::size_t>(j)];
      eta[j] = rng.normal();
    }
  }
  const at::Tensor t_index = at::floor_divide(set.sample_index, points);
  const at::Tensor x_index = at::remainder(set.sample_index, points);
  set.sample_t = set.t.index({t_index});
  set.sample_x = set.x.index({x_index});
  set.sample_u_clean =
      at::gather(set.u.reshape({experiments, times * points}), 1, set.sample_index);
  set.sample_u = set.sample_u_clean + options.noise * noise;
}

ExperimentSet simulate_and_measure(const ExperimentSetOptions& options, const at::Tensor& x,
                                   const std::string& conditions,
                                   const std::function<Solution()>& solve) {
  if (options.experiments < 1)
    throw std::invalid_argument("experiment set '" + options.name +
                                "': number of experiments must be >= 1");
  const std::int64_t times = std::llround(options.solve.t_end / options.solve.output_dt) + 1;
  validate(options.measurements, times * x.size(0));  // before the solve, not after
  Solution solution;
  try {
    solution = solve();
  } catch (const SolverDivergence& error) {
    throw SolverDivergence("experiment set '" + options.name + "': " + error.what(),
                           error.time_reached());
  }
  ExperimentSet set;
  set.name = options.name;
  set.conditions = conditions;
  set.x = x;
  set.t = solution.t;
  set.u = solution.u;
  set.dt = solution.dt;
  set.steps = solution.steps;
  set.rejected_steps = solution.rejected_steps;
  draw_measurements(set, options.measurements, options.seed);
  return set;
}

ExperimentSet simulate_experiment_set(const PeriodicGrid& grid, const Equation& equation,
                                      const ExperimentSetOptions& options,
                                      const SetProgressCallback& progress) {
  return simulate_and_measure(options, grid.x(), "", [&] {
    const at::Tensor u0 =
        make_initial_conditions(grid, options.initial_condition, options.experiments, options.seed,
                                options.name + "/initial_condition");
    ProgressCallback solve_progress;
    if (progress)
      solve_progress = [&](double t, double t_end) { progress(options.name, t, t_end); };
    return solve_periodic(grid, equation, u0, options.solve, solve_progress);
  });
}

}  // namespace bhpm::pde
