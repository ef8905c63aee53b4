#include "pde/sampled_initial_condition.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "io/csv_reader.h"
#include "pde/hermite_interpolant.h"
#include "pde/periodicity.h"
#include "util/comma_list.h"
#include "util/number_format.h"

namespace bhpm::pde {

namespace {

/// Samples sorted by x, x_max folded onto x_min.
void sort_samples(const PeriodicGrid& grid, std::vector<double>& x, std::vector<double>& u,
                  const std::string& source) {
  for (double& value : x)
    if (value == grid.x_max()) value = grid.x_min();
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return x[a] < x[b]; });
  std::vector<double> sorted_x, sorted_u;
  for (const std::size_t i : order) {
    if (!sorted_x.empty() && sorted_x.back() == x[i])
      throw std::invalid_argument(source +
                                  ": two samples at x = " + util::format_significant(x[i], 6) +
                                  (x[i] == grid.x_min() ? " (x_max is x_min on a period)" : ""));
    sorted_x.push_back(x[i]);
    sorted_u.push_back(u[i]);
  }
  x = std::move(sorted_x);
  u = std::move(sorted_u);
}

}  // namespace

at::Tensor interpolate_periodic(const PeriodicGrid& grid, std::vector<double> x,
                                std::vector<double> u, const std::string& source) {
  if (x.size() < 2 || x.size() != u.size())
    throw std::invalid_argument(source + ": at least 2 samples (x, u) are needed");
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(u[i]))
      throw std::invalid_argument(source + ": sample " + std::to_string(i) + " is NaN or Inf");
    if (x[i] < grid.x_min() || x[i] > grid.x_max())
      throw std::invalid_argument(
          source + ": x = " + util::format_significant(x[i], 6) + " lies outside the domain [" +
          util::format_significant(grid.x_min(), 6) + ", " +
          util::format_significant(grid.x_max(), 6) + "] (set domain.x_min and domain.x_max)");
  }
  sort_samples(grid, x, u, source);
  require_periodic(grid, x, u, source);
  // Extend by one period on each side so that every grid point has neighbours.
  std::vector<double> xs = {x.back() - grid.length()}, us = {u.back()};
  xs.insert(xs.end(), x.begin(), x.end());
  us.insert(us.end(), u.begin(), u.end());
  xs.push_back(x.front() + grid.length());
  us.push_back(u.front());
  const at::Tensor points = grid.x().contiguous();
  const double* grid_x = points.data_ptr<double>();
  std::vector<double> u0(static_cast<std::size_t>(points.size(0)));
  for (std::size_t j = 0; j < u0.size(); ++j) {
    const auto right = std::upper_bound(xs.begin(), xs.end(), grid_x[j]) - xs.begin();
    const double weight = (grid_x[j] - xs[right - 1]) / (xs[right] - xs[right - 1]);
    u0[j] = (1 - weight) * us[right - 1] + weight * us[right];
  }
  return at::tensor(u0, at::kDouble);
}

namespace {

/// Columns x and `fields` of the CSV at `path` (io/csv_reader.h): [1 + fields][rows]; errors
/// name the file and line.
std::vector<std::vector<double>> read_columns(const std::string& path,
                                              const std::vector<std::string>& fields) {
  io::CsvReader reader(path);
  std::vector<std::size_t> columns = {reader.column("x")};
  for (const std::string& field : fields) columns.push_back(reader.column(field));
  std::vector<std::vector<double>> values(columns.size());
  while (reader.next())
    for (std::size_t c = 0; c < columns.size(); ++c) {
      values[c].push_back(reader.number(columns[c]));
      if (!std::isfinite(values[c].back()))
        throw std::invalid_argument(reader.where() + ": x and " + util::join_with_commas(fields) +
                                    " must be finite");
    }
  return values;
}

/// Columns x and u of the CSV at `path`.
std::pair<std::vector<double>, std::vector<double>> read_samples(const std::string& path) {
  std::vector<std::vector<double>> columns = read_columns(path, {"u"});
  return {std::move(columns[0]), std::move(columns[1])};
}

}  // namespace

at::Tensor initial_condition_from_csv(const PeriodicGrid& grid, const std::string& path) {
  auto [x, u] = read_samples(path);
  return interpolate_periodic(grid, std::move(x), std::move(u), path);
}

std::vector<double> system_initial_condition_from_csv(const PeriodicGrid& grid,
                                                      const std::vector<std::string>& fields,
                                                      const std::string& path) {
  const std::vector<std::vector<double>> columns = read_columns(path, fields);
  std::vector<double> u0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const at::Tensor field =
        interpolate_periodic(grid, columns[0], columns[i + 1], path + " (field " + fields[i] + ")")
            .contiguous();
    u0.insert(u0.end(), field.data_ptr<double>(), field.data_ptr<double>() + field.numel());
  }
  return u0;
}

at::Tensor interpolate_on_interval(const ChebyshevGrid& grid, std::vector<double> x,
                                   std::vector<double> u, const std::string& source) {
  if (x.size() < 2 || x.size() != u.size())
    throw std::invalid_argument(source + ": at least 2 samples (x, u) are needed");
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto i, auto j) { return x[i] < x[j]; });
  std::vector<double> sorted_x, sorted_u;
  for (const std::size_t i : order) {
    if (!std::isfinite(x[i]) || !std::isfinite(u[i]))
      throw std::invalid_argument(source + ": sample " + std::to_string(i) + " is NaN or Inf");
    if (!sorted_x.empty() && sorted_x.back() == x[i])
      throw std::invalid_argument(source +
                                  ": two samples at x = " + util::format_significant(x[i], 6));
    sorted_x.push_back(x[i]);
    sorted_u.push_back(u[i]);
  }
  if (sorted_x.front() > grid.a() || sorted_x.back() < grid.b())
    throw std::invalid_argument(
        source + ": the samples cover x in [" + util::format_significant(sorted_x.front(), 6) +
        ", " + util::format_significant(sorted_x.back(), 6) +
        "]; on a bounded domain they must "
        "cover [" +
        util::format_significant(grid.a(), 6) + ", " + util::format_significant(grid.b(), 6) +
        "], ends included (the boundary conditions are "
        "checked there)");
  const HermiteInterpolant interpolant(std::move(sorted_x), std::move(sorted_u));
  const at::Tensor points = grid.x().contiguous();
  const double* grid_x = points.data_ptr<double>();
  at::Tensor u0 = at::empty_like(points);
  double* values = u0.data_ptr<double>();
  for (std::int64_t j = 0; j < points.numel(); ++j) values[j] = interpolant(grid_x[j]);
  return u0;
}

at::Tensor initial_condition_from_csv(const ChebyshevGrid& grid, const std::string& path) {
  auto [x, u] = read_samples(path);
  return interpolate_on_interval(grid, std::move(x), std::move(u), path);
}

}  // namespace bhpm::pde
