#pragma once
/// Where the boundary data g(t) of a condition come from (pde/boundary_conditions.h;
/// docs/boundary-conditions.md, "The conditions"): an expression in t, or a measured time
/// series read from a CSV file. Both are safe to call from several threads at once (the
/// bounded solver's members share them).

#include <string>
#include <vector>

#include "pde/boundary_conditions.h"

namespace bhpm::pde {

/// g(t) = the muparser expression `text` in t (constants pi and e); throws ExpressionError
/// naming `field` when it does not parse or reads another variable.
BoundaryValue expression_boundary_value(const std::string& text, const std::string& field);

/// g(t) from the CSV file `path` with columns `t` and `column`: the values at strictly
/// increasing times, interpolated by the piecewise cubic Hermite polynomial whose slope at
/// each time is that of the quadratic through it and its neighbours (continuous with its
/// first derivative, exact for quadratics, third-order accurate). The series must cover the horizon
/// [0, t_end] (its first time <= 0, its last >= t_end) and hold at least two finite
/// records. Throws std::invalid_argument naming the file, the column or line and the rule,
/// prefixed by `field`. Beyond its ends (the solver reads g a little outside [0, t_end]
/// for g') the end pieces are extended.
BoundaryValue series_boundary_value(const std::string& path, const std::string& column,
                                    double t_end, const std::string& field);

/// g(t) interpolated as above from values [k] at strictly increasing times [k] (k >= 2,
/// finite); throws std::invalid_argument otherwise.
BoundaryValue tabulated_boundary_value(std::vector<double> times, std::vector<double> values);

}  // namespace bhpm::pde
