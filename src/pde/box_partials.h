#pragma once
/// Spectral partials of fields on a periodic box (pde/periodic_box.h): the exact partials
/// of a solution grid, for the inputs of a system's root when the derivatives are known
/// (tests and benchmarks of the root against the true operator).

#include <cstdint>
#include <vector>

#include "pde/field_system.h"
#include "pde/periodic_box.h"

namespace bhpm::pde {

/// `partials` [R] of the fields u [q, points] (row-major on the box) as [R, points]:
/// d^a/dx^a d^b/dy^b by FFT, exact on trigonometric polynomials below the Nyquist modes.
std::vector<double> box_partials(const PeriodicBox& box, const std::vector<double>& u,
                                 const std::vector<Partial>& partials);

}  // namespace bhpm::pde
