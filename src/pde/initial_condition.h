#pragma once
/// Initial conditions u0(x) on a periodic grid (and from an expression on a bounded one).
///
/// kind "gp": samples of a zero-mean periodic Gaussian process with kernel
///   k(x, x') = s^2 exp(-2 sin^2(pi (x - x') / p) / l^2),  p = domain length.
/// (The paper writes exp[sin^2(2 pi (x - x')/l_x)], which is not positive definite: its
/// Gram matrices have negative eigenvalues and its period is l_x / 2.) This kernel equals
/// s^2 exp(-1/l^2) exp(cos(2 pi (x - x')/p) / l^2), whose Fourier coefficients
/// s^2 exp(-1/l^2) I_j(1/l^2) are positive, so it is positive definite. On the uniform
/// grid its covariance matrix is circulant, C = F^-1 diag(lambda) F, and
/// u0 = F^-1 diag(sqrt(lambda)) F xi, xi ~ N(0, I), is an exact sample. The eigenvalues
/// lambda come from the Bessel series, not from an FFT of the kernel: the FFT leaves
/// rounding noise of 1e-16 relative in eigenvalues that are truly 1e-300, and its square
/// root (1e-8) seeded high-wavenumber noise that made KdV solutions depend on the time
/// step at the 1e-7 level.
/// kind "expression": u0 = an expression in x (constants pi, L, x_min, x_max).
/// kind "file": the n grid values read from a text file.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pde/chebyshev_grid.h"
#include "pde/periodic_grid.h"
#include "util/option_check.h"

namespace bhpm::pde {

struct PeriodicGpOptions {
  double amplitude = 1.0;     ///< s (> 0)
  double length_scale = 1.0;  ///< l (>= kMinLengthScale), relative to the period
};

/// Smallest length scale: below it e^{-a} I_p(a), a = 1/l^2, overflows in double.
constexpr double kMinLengthScale = 0.05;

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const PeriodicGpOptions& options);

/// Eigenvalues lambda_j [n/2+1] of the grid covariance matrix (exact up to rounding).
at::Tensor periodic_kernel_eigenvalues(const PeriodicGrid& grid, const PeriodicGpOptions& options);

/// The kernel matrix [n, n] on the grid points (tests and diagnostics).
at::Tensor periodic_kernel_matrix(const PeriodicGrid& grid, const PeriodicGpOptions& options);

/// One exact sample [n] from the seed.
at::Tensor sample_periodic_gp(const PeriodicGrid& grid, const PeriodicGpOptions& options,
                              std::uint64_t seed);

/// u0 [n] from an expression in x; `field` names the configuration field in errors. Refused
/// when not finite at every grid point or not periodic (pde/periodicity.h).
at::Tensor initial_condition_from_expression(const PeriodicGrid& grid, const std::string& text,
                                             const std::string& field);

/// u0 [n+1] from an expression in x at the Chebyshev points of a bounded domain [a, b]
/// (constants L = b - a, x_min = a, x_max = b); refused when not finite at every point.
/// Whether it meets the boundary conditions is checked where they are known
/// (pde::require_compatible).
at::Tensor initial_condition_from_expression(const ChebyshevGrid& grid, const std::string& text,
                                             const std::string& field);

/// u0 [n] from a whitespace-separated text file of n finite numbers; errors name the
/// file, `field` and the count found; refused when not periodic (pde/periodicity.h).
at::Tensor initial_condition_from_file(const PeriodicGrid& grid, const std::string& path,
                                       const std::string& field);

}  // namespace bhpm::pde

namespace bhpm::pde {

/// The kinds of InitialConditionOptions, in the order users see them: "gp", "expression",
/// "file".
const std::vector<std::string>& initial_condition_kinds();

/// Which initial conditions a set of experiments starts from.
struct InitialConditionOptions {
  std::string kind = "gp";  ///< "gp" | "expression" | "file"
  PeriodicGpOptions gp;     ///< kind "gp": one independent sample per experiment
  std::string expression;   ///< kind "expression": the same u0 for every experiment
  std::string file;         ///< kind "file": the same u0 for every experiment
  /// Names fields in error messages ("initial_condition.file"; a configuration reader's say
  /// which file or --set gave the value).
  util::FieldNames field_names = util::section_fields("initial_condition");
};

/// u0 [count, n]; experiment e of a GP set uses util::derive_seed(seed, stream, e).
at::Tensor make_initial_conditions(const PeriodicGrid& grid, const InitialConditionOptions& options,
                                   std::int64_t count, std::uint64_t seed,
                                   const std::string& stream);

}  // namespace bhpm::pde
