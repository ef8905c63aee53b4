#include "pde/hermite_interpolant.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace bhpm::pde {

namespace {

/// The derivative at s_k of the quadratic through the points i, i + 1, i + 2.
double quadratic_slope(const std::vector<double>& s, const std::vector<double>& g, std::size_t i,
                       std::size_t k) {
  double slope = 0.0;
  for (std::size_t j = i; j < i + 3; ++j) {
    // d/ds of the Lagrange basis polynomial l_j at s_k.
    double derivative = 0.0;
    for (std::size_t m = i; m < i + 3; ++m) {
      if (m == j) continue;
      double term = 1.0 / (s[j] - s[m]);
      for (std::size_t q = i; q < i + 3; ++q)
        if (q != j && q != m) term *= (s[k] - s[q]) / (s[j] - s[q]);
      derivative += term;
    }
    slope += g[j] * derivative;
  }
  return slope;
}

}  // namespace

HermiteInterpolant::HermiteInterpolant(std::vector<double> s, std::vector<double> g)
    : s_(std::move(s)), g_(std::move(g)) {
  const std::size_t n = s_.size();
  if (n < 2 || n != g_.size())
    throw std::invalid_argument("interpolant: needs >= 2 abscissae and one value for each");
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(s_[k]) || !std::isfinite(g_[k]) || (k > 0 && !(s_[k] > s_[k - 1])))
      throw std::invalid_argument(
          "interpolant: abscissae and values must be finite, the abscissae increasing strictly");
  slope_.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    slope_[k] = n == 2 ? (g_[1] - g_[0]) / (s_[1] - s_[0])
                       : quadratic_slope(s_, g_, std::clamp<std::size_t>(k, 1, n - 2) - 1, k);
}

double HermiteInterpolant::operator()(double s) const {
  const auto upper = std::upper_bound(s_.begin(), s_.end(), s);
  const std::size_t k =
      std::clamp<std::size_t>(static_cast<std::size_t>(upper - s_.begin()), 1, s_.size() - 1) - 1;
  const double h = s_[k + 1] - s_[k], r = (s - s_[k]) / h;
  const double h00 = (1 + 2 * r) * (1 - r) * (1 - r), h10 = r * (1 - r) * (1 - r);
  const double h01 = r * r * (3 - 2 * r), h11 = r * r * (r - 1);
  return h00 * g_[k] + h10 * h * slope_[k] + h01 * g_[k + 1] + h11 * h * slope_[k + 1];
}

}  // namespace bhpm::pde
