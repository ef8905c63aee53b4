#pragma once
/// A boundary condition written as users write it (docs/boundary-conditions.md, "Conditions
/// in the configuration"): a linear combination of u and its x-derivatives, '=', and the
/// boundary data g(t):
///
///   "u = 0"                     Dirichlet
///   "u_x = 0.5*sin(t)"          Neumann, g an expression in t (pde/boundary_values.h)
///   "2 u + u_x = 1"             Robin ("2*u + u_x" too)
///   "u_xx = 0"                  a condition on a higher derivative
///   "u = walls.csv:left"        g measured: column `left` of a CSV file with a column t
///
/// The left side is sum_m w_m d^m u/dx^m with terms u, u_x, u_xx, ... each with an optional
/// sign and coefficient; a term named twice adds up. A right side of the form PATH.csv:COLUMN
/// is a time series; anything else is an expression in t (constants pi and e).

#include <string>

#include "pde/boundary_conditions.h"

namespace bhpm::pde {

/// Parses `text`; a series' relative PATH is taken relative to `base_dir` and must cover
/// [0, t_end]. Throws std::invalid_argument prefixed by `field` ("config.toml:
/// domain.left") naming the text and the rule it breaks.
BoundaryCondition parse_boundary_condition(const std::string& text, double t_end,
                                           const std::string& base_dir, const std::string& field);

}  // namespace bhpm::pde
