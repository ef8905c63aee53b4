#pragma once
/// A set of simulated experiments (the paper's appendix "Datasets"): full solution grids
/// u[e, t, x] and, per experiment, n_st measurement points drawn at random without
/// replacement from the space-time grid, with Gaussian noise of standard deviation epsilon.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>

#include "pde/equation.h"
#include "pde/initial_condition.h"
#include "pde/periodic_grid.h"
#include "pde/periodic_solve.h"
#include "pde/solution.h"

namespace bhpm::pde {

struct MeasurementOptions {
  std::int64_t n_st = 8192;  ///< points per experiment (<= T * n)
  double noise = 0.0;        ///< epsilon, standard deviation of the additive noise (>= 0)
};

/// Throws util::OptionError naming the field, its value and the rule; `grid_values` is the
/// space-time grid's T x n values the points are drawn from without replacement.
void validate(const MeasurementOptions& options, std::int64_t grid_values);

struct ExperimentSetOptions {
  std::string name = "train";  ///< names the random streams and the HDF5 group
  std::int64_t experiments = 10;
  std::uint64_t seed = 0;  ///< the configuration seed
  InitialConditionOptions initial_condition;
  MeasurementOptions measurements;
  SolveOptions solve;
};

struct ExperimentSet {
  std::string name;
  /// "" for a periodic grid; for a bounded domain its conditions (pde::describe: "left:
  /// u = 0; right: u = 0"), and x the Chebyshev points of [x_0, x_last]
  /// (pde/bounded_experiment_set.h).
  std::string conditions;
  at::Tensor x;               ///< [n] grid points
  at::Tensor t;               ///< [T] output times
  at::Tensor u;               ///< [E, T, n] solutions
  at::Tensor sample_index;    ///< [E, n_st] int64, flat index t_index * n + x_index
  at::Tensor sample_x;        ///< [E, n_st]
  at::Tensor sample_t;        ///< [E, n_st]
  at::Tensor sample_u_clean;  ///< [E, n_st] noise-free values
  at::Tensor sample_u;        ///< [E, n_st] measured values, clean + epsilon * N(0, 1)
  double noise = 0.0;
  double dt = 0.0;                  ///< solver step actually used (adaptive: the mean one)
  std::int64_t steps = 0;           ///< steps taken (pde/periodic_solve.h)
  std::int64_t rejected_steps = 0;  ///< adaptive steps rejected
};

/// Progress of a set: (set name, t, t_end).
using SetProgressCallback = std::function<void(const std::string&, double, double)>;

/// Simulates every experiment of the set in one batched solve and draws the measurements.
/// Throws std::invalid_argument for inconsistent options and SolverDivergence on blow-up.
ExperimentSet simulate_experiment_set(const PeriodicGrid& grid, const Equation& equation,
                                      const ExperimentSetOptions& options,
                                      const SetProgressCallback& progress = {});

/// What every set's simulation does around its solve: checks that options.experiments >= 1
/// and that the measurements fit the grid of `points` x the output times (before the solve),
/// runs `solve` (a SolverDivergence is rethrown naming the set), and returns the set of its
/// snapshots on the grid points x [n] with the measurements drawn; `conditions` is the
/// set's (ExperimentSet::conditions: "" for a periodic grid).
ExperimentSet simulate_and_measure(const ExperimentSetOptions& options, const at::Tensor& x,
                                   const std::string& conditions,
                                   const std::function<Solution()>& solve);

/// Draws the measurement points of a set whose solutions `set.u` are filled in: uniformly
/// among the grid values of a periodic set; on a bounded set's Chebyshev points with
/// probability proportional to each point's cell width, so that they spread uniformly in x.
void draw_measurements(ExperimentSet& set, const MeasurementOptions& options, std::uint64_t seed);

}  // namespace bhpm::pde
