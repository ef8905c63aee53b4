#pragma once
/// An initial condition measured at points: a CSV of (x, u) samples of one period (or of
/// (x, y, fields) on a 2-D grid of samples), interpolated to the periodic grid the
/// prediction is solved on, or of a bounded domain,
/// interpolated to its Chebyshev points (`bhpm predict --ic-file`; docs/importing-data.md,
/// "Predicting from data").

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "pde/chebyshev_grid.h"
#include "pde/periodic_box.h"
#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// u0 [n] at the grid points from samples (x_j, u_j) in [x_min, x_max]: piecewise linear in
/// x, across the period boundary too (a sample at x_max stands for x_min). Throws
/// std::invalid_argument naming `source` for fewer than 2 samples, a value NaN or Inf, x
/// outside the domain, two samples at one x (x_max and x_min count as one), and for
/// samples that are not periodic on the domain: a jump across the period boundary larger
/// than 1 % of u's range and steeper than 4 times the steepest slope between neighbouring
/// samples inside the domain.
at::Tensor interpolate_periodic(const PeriodicGrid& grid, std::vector<double> x,
                                std::vector<double> u, const std::string& source);

/// Reads columns `x` and `u` of the CSV at `path` (io/csv_reader.h) and interpolates them
/// as interpolate_periodic does; errors name the file and the line.
at::Tensor initial_condition_from_csv(const PeriodicGrid& grid, const std::string& path);

/// u0 [q, n] of a system of q fields on a line: columns x and each of `fields` of the CSV
/// at `path`, each field interpolated as interpolate_periodic does; errors name the file,
/// the line or the field.
std::vector<double> system_initial_condition_from_csv(const PeriodicGrid& grid,
                                                      const std::vector<std::string>& fields,
                                                      const std::string& path);

/// u0 [q, n_y n_x] of a system of q fields on a 2-D box (each field row-major, as
/// pde/periodic_box.h lays it): columns x, y and each of `fields` of the CSV at `path`,
/// sampled on a rectilinear grid of one period (every pair of its distinct x's and y's
/// once, any spacing), interpolated bilinearly and periodically: interpolate_periodic along
/// x on every sample row, then along y at every grid column, its rules checked on each
/// line. Errors name the file, the line, or the field and the line of samples.
std::vector<double> system_initial_condition_from_csv(const PeriodicBox& box,
                                                      const std::vector<std::string>& fields,
                                                      const std::string& path);

/// u0 [n+1] at the Chebyshev points of a bounded domain [a, b] from samples (x_j, u_j) that
/// cover it (ends included): the cubic Hermite interpolant of pde/hermite_interpolant.h,
/// whose first derivative is continuous, as Neumann and Robin conditions read it. Throws
/// std::invalid_argument naming `source` for fewer than 2 samples, a value NaN or Inf, two
/// samples at one x, and samples that do not reach an end.
at::Tensor interpolate_on_interval(const ChebyshevGrid& grid, std::vector<double> x,
                                   std::vector<double> u, const std::string& source);

/// The same from columns `x` and `u` of the CSV at `path`.
at::Tensor initial_condition_from_csv(const ChebyshevGrid& grid, const std::string& path);

}  // namespace bhpm::pde
