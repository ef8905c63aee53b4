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
#include "pde/hermite_interpolant.h"
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
  try {
    return HermiteInterpolant(std::move(times), std::move(values));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("boundary series: ") + error.what());
  }
}

}  // namespace bhpm::pde
