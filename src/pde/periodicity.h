#pragma once
/// The rule every initial condition meets before a periodic solver takes it: u0 may not
/// jump across the period boundary (an `--ic x` on [-8, 8) would be solved as a sawtooth).

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// Throws std::invalid_argument naming `source` when samples (x_j, u_j), sorted by x in
/// [x_min, x_max), are not periodic on the domain: a jump across the period boundary larger
/// than 1 % of u's range and steeper than 4 times the steepest slope between neighbouring
/// samples inside the domain.
void require_periodic(const PeriodicGrid& grid, const std::vector<double>& x,
                      const std::vector<double>& u, const std::string& source);

/// The same rule for u0 [n] at the grid points.
void require_periodic_on_grid(const PeriodicGrid& grid, const at::Tensor& u0,
                              const std::string& source);

}  // namespace bhpm::pde
