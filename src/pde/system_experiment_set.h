#pragma once
/// A set of simulated experiments of a field system (pde/field_system.h) on a periodic box:
/// full solution grids of every field and, per experiment, n_st measurement points drawn at
/// random without replacement from the space-time grid, every field measured at the same
/// points, each with Gaussian noise of standard deviation `noise` (the random streams as
/// pde/experiment_set.h's: named by the set, so adding experiments never changes the ones
/// already there).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pde/experiment_set.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/system_initial_condition.h"
#include "pde/system_solve.h"

namespace bhpm::pde {

struct SystemSetOptions {
  std::string name = "train";  ///< names the random streams and the HDF5 group
  std::int64_t experiments = 4;
  std::uint64_t seed = 0;
  SystemInitialConditionOptions initial_condition;
  MeasurementOptions measurements;
  SystemSolveOptions solve;
};

struct SystemExperimentSet {
  std::string name;
  std::vector<double> t;  ///< [T] output times
  std::vector<double> u;  ///< [E, T, q, points]: each field row-major on the box
  std::int64_t experiments = 0;
  std::int64_t n_st = 0;
  std::vector<std::int64_t> sample_index;            ///< [E, n_st]: t_index * points + point index
  std::vector<double> sample_x, sample_y, sample_t;  ///< [E, n_st] (y: y_min in 1-D)
  std::vector<double> sample_u_clean;                ///< [E, q, n_st]: noise-free values
  std::vector<double> sample_u;                      ///< [E, q, n_st]: clean + noise * N(0, 1)
  double noise = 0.0;
  std::int64_t steps = 0;           ///< the most steps any experiment kept
  std::int64_t rejected_steps = 0;  ///< the most steps any experiment tried again
};

/// One field's values [S, points] out of u [S, q, points] (S snapshots of q fields).
std::vector<double> field_values(const std::vector<double>& u, std::int64_t field,
                                 std::int64_t fields, std::int64_t points);

/// Progress of a set: (set name, experiment, t, t_end).
using SystemSetProgress = std::function<void(const std::string&, std::int64_t, double, double)>;

/// Simulates every experiment of the set (one solve each) and draws the measurements.
/// Throws std::invalid_argument for inconsistent options (before any solve) and
/// SolverDivergence naming the set and the experiment on blow-up.
SystemExperimentSet simulate_system_set(const PeriodicBox& box, const FieldSystem& system,
                                        const SystemSetOptions& options,
                                        const SystemSetProgress& progress = {});

}  // namespace bhpm::pde
