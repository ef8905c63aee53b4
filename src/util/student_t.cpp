#include "util/student_t.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "util/number_format.h"

namespace bhpm::util {

namespace {

double density(double t, double nu) {
  const double log_norm =
      std::lgamma(0.5 * (nu + 1.0)) - std::lgamma(0.5 * nu) - 0.5 * std::log(nu * M_PI);
  return std::exp(log_norm - 0.5 * (nu + 1.0) * std::log1p(t * t / nu));
}

}  // namespace

double student_t_cdf(double x, double nu) {
  if (!(nu > 0.0) || std::isnan(x))
    throw std::invalid_argument(
        "Student t: nu must be > 0 and x a number (got nu = " + util::format_significant(nu, 6) +
        ", x = " + util::format_significant(x, 6) + ")");
  const double end = std::min(std::abs(x), 1e3);
  constexpr int kIntervals = 4000;  // even, for Simpson's rule
  const double h = end / kIntervals;
  double sum = density(0.0, nu) + density(end, nu);
  for (int i = 1; i < kIntervals; ++i) sum += (i % 2 == 1 ? 4.0 : 2.0) * density(i * h, nu);
  const double half_mass = sum * h / 3.0;
  return x >= 0.0 ? 0.5 + half_mass : 0.5 - half_mass;
}

double student_t_quantile(double p, double nu) {
  if (!(p > 0.0 && p < 1.0) || !(nu > 0.0))
    throw std::invalid_argument("Student t quantile: p must be in (0, 1) and nu > 0 (got p = " +
                                util::format_significant(p, 6) +
                                ", nu = " + util::format_significant(nu, 6) + ")");
  if (p < 0.5) return -student_t_quantile(1.0 - p, nu);
  double low = 0.0, high = 1.0;
  while (student_t_cdf(high, nu) < p && high < 1e3) high *= 2.0;
  while (high - low > 1e-10 * std::max(1.0, high)) {
    const double middle = 0.5 * (low + high);
    (student_t_cdf(middle, nu) < p ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

}  // namespace bhpm::util
