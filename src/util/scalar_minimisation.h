#pragma once
/// One-dimensional minimisation of an objective that may have several local minima: a
/// grid, then golden section about the grid's best point.

#include <functional>

namespace bhpm::util {

/// The x minimising `objective` over [low, high]: the objective at x_i = low + step i,
/// i = 0 .. round((high - low) / step), and, about the first smallest x_b, 60 golden-section
/// steps over [x_b - step, x_b + step] (a bracket 1e-12 of its width); the last bracket's
/// midpoint. The bracket may reach step beyond [low, high]. Requires low <= high, step > 0.
double minimise_on_grid(const std::function<double(double)>& objective, double low, double high,
                        double step);

}  // namespace bhpm::util
