#pragma once
/// Default box, resolution, times and initial-condition prior of each field system
/// (pde/field_system.h), for `bhpm simulate` with a [system] section:
///   nls                      [-10, 10), 256 points, t in [0, 5], output every 0.05, dt 0.01,
///                            GP s = 1, l = 1
///   lambda_omega             [-10, 10)^2, 128^2 points, t in [0, 10], output every 0.5,
///                            dt 0.05, GP s = 1, l = 0.5 (patterns of a few units)
///   burgers_2d, advection_diffusion_2d, general in 2-D
///                            [-8, 8)^2, 128^2 points, t in [0, 5], output every 0.1, dt 0.01,
///                            GP s = 0.4, l = 1.5 (the 1-D Burgers prior per axis)
///   general in 1-D           [-8, 8), 256 points, t in [0, 5], output every 0.05, dt 0.005,
///                            GP s = 0.4, l = 1.5
/// Steps are chosen to the solver's tolerance 1e-8 (pde/system_solve.h); dt is the largest.

#include <cstdint>
#include <string>

namespace bhpm::pde {

struct SystemDefaults {
  double x_min, x_max, t_end, output_dt, dt;
  std::int64_t points;
  double ic_amplitude, ic_length_scale;
};

/// The defaults of system `name` in `dimensions` (1 or 2; y as x in 2-D).
inline SystemDefaults system_defaults(const std::string& name, int dimensions) {
  if (name == "nls") return {-10.0, 10.0, 5.0, 0.05, 0.01, 256, 1.0, 1.0};
  if (name == "lambda_omega") return {-10.0, 10.0, 10.0, 0.5, 0.05, 128, 1.0, 0.5};
  if (dimensions == 2) return {-8.0, 8.0, 5.0, 0.1, 0.01, 128, 0.4, 1.5};
  return {-8.0, 8.0, 5.0, 0.05, 0.005, 256, 0.4, 1.5};
}

}  // namespace bhpm::pde
