#pragma once
/// Time integration of a field system (pde/field_system.h) on a periodic box with ETDRK4
/// (pde/system_etdrk4.h), sampled at the uniform output times 0, output_dt, ..., t_end
/// (pde/output_times.h): with a fixed step, or with steps chosen to a tolerance by step
/// doubling (docs/systems.md, "The solver").

#include <cstdint>
#include <vector>

#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/solution.h"
#include "pde/system_nonlinear_part.h"

namespace bhpm::pde {

struct SystemSolveOptions {
  double t_end = 10.0;
  double output_dt = 0.1;
  /// The largest step: lowered to h_0 = output_dt / ceil(output_dt / dt). Fixed steps
  /// (tolerance 0) are all h_0; adaptive steps are h_0 / 2^j.
  double dt = 0.01;
  /// > 0: each step of h is kept when ||v_h - v_{h/2,h/2}|| / ||v_{h/2,h/2}|| (L2 over every
  /// field) is at most this, and the two half steps are kept; otherwise it is tried at h/2.
  /// A step well inside the tolerance (32 times) lets the next one double. 0: fixed steps.
  double tolerance = 1e-8;
  double blowup_factor = 1e3;  ///< stop when max|u_i| > factor * max(1, max|u0|)
  int contour_points = 64;     ///< M of pde/etdrk4_coefficients.h
};

struct SystemSolution {
  std::vector<double> t;            ///< [T] output times
  std::vector<double> u;            ///< [T, q, points]: each field row-major on the box
  std::int64_t steps = 0;           ///< steps kept
  std::int64_t rejected_steps = 0;  ///< adaptive: steps tried again at half the size
};

/// Throws util::OptionError naming the field ("solver.dt") and the rule.
void validate(const SystemSolveOptions& options);

/// Solves from u0 [q, points]; throws std::invalid_argument for a u0 of another size and
/// SolverDivergence, naming the time and the field, when a field is not finite, exceeds the
/// blow-up limit or (adaptive) needs a step below 2^-30 h_0. With `nonlinearity`, the
/// system's nonlinear parts are that code (pde/system_nonlinear_part.h).
SystemSolution solve_field_system(const PeriodicBox& box, const FieldSystem& system,
                                  const std::vector<double>& u0, const SystemSolveOptions& options,
                                  const ProgressCallback& progress = {},
                                  const PointwiseNonlinearity* nonlinearity = nullptr);

}  // namespace bhpm::pde
