#include "pde/sampled_initial_condition.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "io/csv_reader.h"
#include "pde/hermite_interpolant.h"
#include "pde/periodic_box.h"
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

/// Columns `names` of the CSV at `path` (io/csv_reader.h): [names][rows]; errors name the
/// file and line.
std::vector<std::vector<double>> read_columns(const std::string& path,
                                              const std::vector<std::string>& names) {
  io::CsvReader reader(path);
  std::vector<std::size_t> columns;
  for (const std::string& name : names) columns.push_back(reader.column(name));
  std::vector<std::vector<double>> values(columns.size());
  while (reader.next())
    for (std::size_t c = 0; c < columns.size(); ++c) {
      values[c].push_back(reader.number(columns[c]));
      if (!std::isfinite(values[c].back()))
        throw std::invalid_argument(reader.where() + ": " + util::join_with_commas(names) +
                                    " must be finite");
    }
  return values;
}

/// The distinct values of `values`, increasing.
std::vector<double> distinct(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

/// Row of the CSV at each (x_i, y_j) of the sample grid [n_y][n_x]; throws naming `path`
/// unless every pair of the distinct x's and y's is sampled exactly once.
std::vector<std::vector<std::size_t>> grid_rows(const std::vector<double>& x,
                                                const std::vector<double>& y,
                                                const std::vector<double>& xs,
                                                const std::vector<double>& ys,
                                                const std::string& path) {
  constexpr auto kMissing = static_cast<std::size_t>(-1);
  std::vector<std::vector<std::size_t>> rows(ys.size(),
                                             std::vector<std::size_t>(xs.size(), kMissing));
  const auto index = [](const std::vector<double>& axis, double value) {
    return static_cast<std::size_t>(std::lower_bound(axis.begin(), axis.end(), value) -
                                    axis.begin());
  };
  for (std::size_t r = 0; r < x.size(); ++r) {
    std::size_t& row = rows[index(ys, y[r])][index(xs, x[r])];
    if (row != kMissing)
      throw std::invalid_argument(path + ": two samples at (x, y) = (" +
                                  util::format_significant(x[r], 6) + ", " +
                                  util::format_significant(y[r], 6) + ")");
    row = r;
  }
  if (x.size() != xs.size() * ys.size())
    throw std::invalid_argument(
        path + ": the samples are not a grid: " + std::to_string(xs.size()) + " values of x and " +
        std::to_string(ys.size()) + " of y make " + std::to_string(xs.size() * ys.size()) +
        " pairs, the file has " + std::to_string(x.size()) + " rows (every pair once is needed)");
  return rows;
}

/// Columns x and u of the CSV at `path`.
std::pair<std::vector<double>, std::vector<double>> read_samples(const std::string& path) {
  std::vector<std::vector<double>> columns = read_columns(path, {"x", "u"});
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
  std::vector<std::string> names = {"x"};
  names.insert(names.end(), fields.begin(), fields.end());
  const std::vector<std::vector<double>> columns = read_columns(path, names);
  std::vector<double> u0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const at::Tensor field =
        interpolate_periodic(grid, columns[0], columns[i + 1], path + " (field " + fields[i] + ")")
            .contiguous();
    u0.insert(u0.end(), field.data_ptr<double>(), field.data_ptr<double>() + field.numel());
  }
  return u0;
}

std::vector<double> system_initial_condition_from_csv(const PeriodicBox& box,
                                                      const std::vector<std::string>& fields,
                                                      const std::string& path) {
  std::vector<std::string> names = {"x", "y"};
  names.insert(names.end(), fields.begin(), fields.end());
  const std::vector<std::vector<double>> columns = read_columns(path, names);
  const std::vector<double> xs = distinct(columns[0]), ys = distinct(columns[1]);
  const auto rows = grid_rows(columns[0], columns[1], xs, ys, path);
  const PeriodicGrid along_x(box.x_min(), box.x_max(), box.nx());
  const PeriodicGrid along_y(box.y_min(), box.y_max(), box.ny());
  std::vector<double> u0;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::vector<double>& values = columns[f + 2];
    const std::string source = path + " (field " + fields[f] + ", ";
    std::vector<at::Tensor> sample_rows;  // [n_y samples] of [nx]: along x first
    for (std::size_t j = 0; j < ys.size(); ++j) {
      std::vector<double> row;
      for (const std::size_t r : rows[j]) row.push_back(values[r]);
      sample_rows.push_back(interpolate_periodic(
          along_x, xs, std::move(row), source + "y = " + util::format_significant(ys[j], 6) + ")"));
    }
    const at::Tensor by_row = at::stack(sample_rows).contiguous();  // [n_y samples, nx]
    std::vector<at::Tensor> columns_on_grid;                        // [nx] of [ny]
    for (std::int64_t c = 0; c < box.nx(); ++c) {
      const at::Tensor column = by_row.select(1, c).contiguous();
      columns_on_grid.push_back(
          interpolate_periodic(along_y, ys,
                               std::vector<double>(column.data_ptr<double>(),
                                                   column.data_ptr<double>() + column.numel()),
                               source + "along y)"));
    }
    const at::Tensor field = at::stack(columns_on_grid, 1).contiguous();  // [ny, nx]
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
