#include "pde/periodicity.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "util/number_format.h"
#include "util/tensor_values.h"

namespace bhpm::pde {

void require_periodic(const PeriodicGrid& grid, const std::vector<double>& x,
                      const std::vector<double>& u, const std::string& source) {
  double steepest = 0;
  for (std::size_t i = 1; i < x.size(); ++i)
    steepest = std::max(steepest, std::abs(u[i] - u[i - 1]) / (x[i] - x[i - 1]));
  const auto [low, high] = std::minmax_element(u.begin(), u.end());
  const double jump = std::abs(u.front() - u.back());
  const double gap = x.front() - grid.x_min() + grid.x_max() - x.back();
  if (jump > 0.01 * (*high - *low) && jump / gap > 4.0 * steepest)
    throw std::invalid_argument(
        source + ": u0 is not periodic on [" + util::format_significant(grid.x_min(), 6) + ", " +
        util::format_significant(grid.x_max(), 6) +
        ") (the solvers are periodic): it jumps from u = " + util::format_significant(u.back(), 6) +
        " at x = " + util::format_significant(x.back(), 6) +
        " to u = " + util::format_significant(u.front(), 6) +
        " at x = " + util::format_significant(x.front(), 6) + " across the period boundary");
}

void require_periodic_on_grid(const PeriodicGrid& grid, const at::Tensor& u0,
                              const std::string& source) {
  require_periodic(grid, util::plain_values(grid.x()), util::plain_values(u0), source);
}

}  // namespace bhpm::pde
