#pragma once
/// Initial conditions of a field system (pde/field_system.h) on a periodic box
/// (pde/periodic_box.h), each field [points] row-major on the box:
///   kind "gp": every field an independent sample of the periodic Gaussian process of
///     pde/initial_condition.h, in two dimensions with the product kernel
///     k((x, y), (x', y')) = k_x(x, x') k_y(y, y') (s^2 once, the length scale l relative to
///     each axis's period), whose covariance on the grid is diagonalised by the 2-D Fourier
///     transform with eigenvalues lambda_x(c) lambda_y(r): u = F^-1 diag(sqrt(lambda)) F xi,
///     xi ~ N(0, I), an exact sample;
///   kind "expression": field i = the expression expressions[i] in x and y (constants pi,
///     L_x, L_y), the same for every experiment; refused when not finite or not periodic
///     along either axis (pde/periodicity.h's rule on every row and column).

#include <cstdint>
#include <string>
#include <vector>

#include "pde/field_system.h"
#include "pde/initial_condition.h"
#include "pde/periodic_box.h"
#include "util/option_check.h"

namespace bhpm::pde {

/// The kinds of SystemInitialConditionOptions.
const std::vector<std::string>& system_initial_condition_kinds();

struct SystemInitialConditionOptions {
  std::string kind = "gp";               ///< "gp" | "expression"
  PeriodicGpOptions gp;                  ///< kind "gp": independent samples per field
  std::vector<std::string> expressions;  ///< kind "expression": [q], one per field
  util::FieldNames field_names = util::section_fields("initial_condition");
};

/// One exact sample [points] of the box's periodic Gaussian process from the seed.
std::vector<double> sample_periodic_gp(const PeriodicBox& box, const PeriodicGpOptions& options,
                                       std::uint64_t seed);

/// u0 [q, points] of experiment `e` of the set whose random streams are named `stream`
/// (kind "gp": field i's sample from util::derive_seed(seed, stream + "/" + field name, e)).
/// Throws std::invalid_argument naming the field for a wrong count of expressions, an
/// expression that does not parse, is not finite or is not periodic.
std::vector<double> system_initial_condition(const PeriodicBox& box, const FieldSystem& system,
                                             const SystemInitialConditionOptions& options,
                                             std::uint64_t seed, const std::string& stream,
                                             std::int64_t e);

}  // namespace bhpm::pde
