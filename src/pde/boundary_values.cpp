#include "pde/boundary_values.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "io/csv_reader.h"
#include "pde/expression.h"
#include "util/number_format.h"

namespace bhpm::pde {

BoundaryValue expression_boundary_value(const std::string& text, const std::string& field) {
  struct Guarded {
    explicit Guarded(Expression e) : expression(std::move(e)) {}
    Expression expression;
    std::mutex lock;
  };
  auto guarded = std::make_shared<Guarded>(Expression(text, {"t"}, field));
  return [guarded](double t) {
    const std::lock_guard<std::mutex> hold(guarded->lock);
    double value = 0.0;
    guarded->expression.evaluate({&t}, 1, &value);
    return value;
  };
}

namespace {

/// The derivative at t_k of the quadratic through the points i, i + 1, i + 2.
double quadratic_slope(const std::vector<double>& t, const std::vector<double>& g, std::size_t i,
                       std::size_t k) {
  double slope = 0.0;
  for (std::size_t j = i; j < i + 3; ++j) {
    // d/dt of the Lagrange basis polynomial l_j at t_k.
    double derivative = 0.0;
    for (std::size_t m = i; m < i + 3; ++m) {
      if (m == j) continue;
      double term = 1.0 / (t[j] - t[m]);
      for (std::size_t q = i; q < i + 3; ++q)
        if (q != j && q != m) term *= (t[k] - t[q]) / (t[j] - t[q]);
      derivative += term;
    }
    slope += g[j] * derivative;
  }
  return slope;
}

/// A piecewise cubic Hermite interpolant of (t_k, g_k) whose slope at t_k is that of the
/// quadratic through t_k and its neighbours (the centred difference on uniform times; the
/// first or last three points at the ends; the secant when there are two points).
class HermiteSeries {
 public:
  HermiteSeries(std::vector<double> t, std::vector<double> g) : t_(std::move(t)), g_(std::move(g)) {
    const std::size_t n = t_.size();
    slope_.resize(n);
    for (std::size_t k = 0; k < n; ++k)
      slope_[k] = n == 2 ? (g_[1] - g_[0]) / (t_[1] - t_[0])
                         : quadratic_slope(t_, g_, std::clamp<std::size_t>(k, 1, n - 2) - 1, k);
  }

  double operator()(double t) const {
    const auto upper = std::upper_bound(t_.begin(), t_.end(), t);
    const std::size_t k =
        std::clamp<std::size_t>(static_cast<std::size_t>(upper - t_.begin()), 1, t_.size() - 1) - 1;
    const double h = t_[k + 1] - t_[k], s = (t - t_[k]) / h;
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
    const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    return h00 * g_[k] + h10 * h * slope_[k] + h01 * g_[k + 1] + h11 * h * slope_[k + 1];
  }

 private:
  std::vector<double> t_, g_, slope_;
};

}  // namespace

BoundaryValue series_boundary_value(const std::string& path, const std::string& column,
                                    double t_end, const std::string& field) {
  const std::string where = field + ": " + path;
  io::CsvReader reader(path);
  if (!reader.has_column("t") || !reader.has_column(column))
    throw std::invalid_argument(where + ": a boundary series needs the columns t and " + column);
  const std::size_t t_column = reader.column("t"), g_column = reader.column(column);
  std::vector<double> times, values;
  while (reader.next()) {
    const double t = reader.number(t_column), g = reader.number(g_column);
    if (!std::isfinite(t) || !std::isfinite(g))
      throw std::invalid_argument(reader.where() + ": t and " + column + " must be finite");
    if (!times.empty() && !(t > times.back()))
      throw std::invalid_argument(reader.where() + ": the times t must increase strictly");
    times.push_back(t);
    values.push_back(g);
  }
  if (times.size() < 2)
    throw std::invalid_argument(where + ": a boundary series needs at least 2 records");
  if (times.front() > 0.0 || times.back() < t_end)
    throw std::invalid_argument(where + ": the series covers t in [" +
                                util::format_number(times.front()) + ", " +
                                util::format_number(times.back()) + "]; it must cover [0, " +
                                util::format_number(t_end) + "], the prediction's horizon");
  return tabulated_boundary_value(std::move(times), std::move(values));
}

BoundaryValue tabulated_boundary_value(std::vector<double> times, std::vector<double> values) {
  if (times.size() < 2 || times.size() != values.size())
    throw std::invalid_argument("boundary series: needs >= 2 times and one value per time");
  for (std::size_t k = 0; k < times.size(); ++k)
    if (!std::isfinite(times[k]) || !std::isfinite(values[k]) ||
        (k > 0 && !(times[k] > times[k - 1])))
      throw std::invalid_argument(
          "boundary series: times and values must be finite, the times increasing strictly");
  return HermiteSeries(std::move(times), std::move(values));
}

}  // namespace bhpm::pde
