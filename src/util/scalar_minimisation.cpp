#include "util/scalar_minimisation.h"

#include <cmath>
#include <stdexcept>

namespace bhpm::util {

double minimise_on_grid(const std::function<double(double)>& objective, double low, double high,
                        double step) {
  if (!(step > 0.0) || !(low <= high))
    throw std::invalid_argument("minimise_on_grid: needs low <= high and step > 0");
  const auto steps = static_cast<long>(std::lround((high - low) / step));
  double best_x = low, best = objective(best_x);
  for (long i = 1; i <= steps; ++i) {
    const double x = low + step * static_cast<double>(i);
    const double value = objective(x);
    if (value < best) best = value, best_x = x;
  }
  double left_end = best_x - step, right_end = best_x + step;
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int i = 0; i < 60; ++i) {
    const double left = right_end - golden * (right_end - left_end);
    const double right = left_end + golden * (right_end - left_end);
    if (objective(left) < objective(right))
      right_end = right;
    else
      left_end = left;
  }
  return (left_end + right_end) / 2.0;
}

}  // namespace bhpm::util
