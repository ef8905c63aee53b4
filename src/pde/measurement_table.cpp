#include "pde/measurement_table.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "util/comma_list.h"
#include "util/number_format.h"
#include "util/random.h"

namespace bhpm::pde {

namespace {

/// (column name, values) of every numeric column the table holds.
std::vector<std::pair<const std::string*, const std::vector<double>*>> value_columns(
    const MeasurementTable& table) {
  std::vector<std::pair<const std::string*, const std::vector<double>*>> columns = {
      {&table.columns.x, &table.x}, {&table.columns.t, &table.t}};
  if (!table.y.empty()) columns.emplace_back(&table.columns.y, &table.y);
  for (std::size_t f = 0; f < table.fields.size(); ++f)
    columns.emplace_back(&table.columns.fields[f], &table.fields[f]);
  if (!table.sigma.empty()) columns.emplace_back(&table.columns.sigma, &table.sigma);
  return columns;
}

/// Whether `values` is one of a system's fields, which may be missing (NaN) at a row.
bool may_be_missing(const MeasurementTable& table, const std::vector<double>* values) {
  return table.columns.of_a_system() && values != &table.x && values != &table.y &&
         values != &table.t;
}

/// A system's row measures at least one field.
void check_measured(const MeasurementTable& table, std::size_t row) {
  for (const std::vector<double>& field : table.fields)
    if (!std::isnan(field[row])) return;
  throw std::invalid_argument(table.where(row) + ": no field is measured there (" +
                              util::join_with_commas(table.columns.fields) + " all empty or NaN)");
}

void check_finite(const MeasurementTable& table) {
  const auto columns = value_columns(table);
  for (std::size_t row = 0; row < table.rows(); ++row) {
    if (table.columns.of_a_system()) check_measured(table, row);
    for (const auto& [name, values] : columns) {
      if (std::isnan((*values)[row]) && may_be_missing(table, values)) continue;
      if (!std::isfinite((*values)[row]))
        throw std::invalid_argument(table.where(row) + ", column '" + *name +
                                    "': " + util::format_significant((*values)[row], 10) +
                                    " is not a measurement (NaN or Inf)");
      if (std::abs((*values)[row]) > kLargestMeasurement)
        throw std::invalid_argument(table.where(row) + ", column '" + *name +
                                    "': " + util::format_significant((*values)[row], 10) +
                                    " exceeds 1e150 in magnitude (the leaves scale by windows and "
                                    "spreads whose squares would overflow; check the units)");
      if (values == &table.sigma && (*values)[row] <= 0)
        throw std::invalid_argument(table.where(row) + ", column '" + *name +
                                    "': a noise standard deviation must be positive, not " +
                                    util::format_significant((*values)[row], 10));
    }
  }
}

/// Row indices of every experiment, in file order.
std::vector<std::vector<std::int64_t>> rows_by_experiment(const MeasurementTable& table) {
  std::vector<std::vector<std::int64_t>> rows(table.experiment_names.size());
  for (std::size_t row = 0; row < table.rows(); ++row)
    rows[static_cast<std::size_t>(table.experiment[row])].push_back(static_cast<std::int64_t>(row));
  return rows;
}

/// The point of a row: (x, y, t), y = 0 in one dimension.
std::array<double, 3> point_of(const MeasurementTable& table, std::int64_t row) {
  return {table.x[row], table.y.empty() ? 0.0 : table.y[row], table.t[row]};
}

void check_points(const MeasurementTable& table, const std::string& name,
                  std::vector<std::int64_t> rows) {
  const std::string where = table.source + ": experiment '" + name + "'";
  if (rows.size() < 2)
    throw std::invalid_argument(where + " has " + std::to_string(rows.size()) +
                                " point (a leaf needs at least 2)");
  std::sort(rows.begin(), rows.end(), [&](std::int64_t a, std::int64_t b) {
    return point_of(table, a) < point_of(table, b);
  });
  const bool two = !table.y.empty();
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::int64_t a = rows[i - 1], b = rows[i];
    if (point_of(table, a) != point_of(table, b)) continue;
    std::string point = util::format_significant(table.x[a], 10) + ", ";
    if (two) point += util::format_significant(table.y[a], 10) + ", ";
    throw std::invalid_argument(where + ": " + table.row_label(a) + " and " + table.row_label(b) +
                                " measure the same point " + (two ? "(x, y, t)" : "(x, t)") +
                                " = (" + point + util::format_significant(table.t[a], 10) +
                                "); average or remove the repeats first");
  }
  std::vector<std::pair<const char*, const std::vector<double>*>> axes = {{"x", &table.x}};
  if (two) axes.emplace_back("y", &table.y);
  axes.emplace_back("t", &table.t);
  for (const auto& [axis, values] : axes) {
    const auto [low, high] = std::minmax_element(
        rows.begin(), rows.end(), [&](auto a, auto b) { return (*values)[a] < (*values)[b]; });
    if ((*values)[*low] == (*values)[*high])
      throw std::invalid_argument(
          where + ": all its " + std::to_string(rows.size()) + " points have " + axis + " = " +
          util::format_significant((*values)[*low], 10) + ": zero extent in " + axis +
          " (a leaf needs a window of positive size on every axis)");
  }
}

at::Tensor gathered(const std::vector<double>& values, const std::vector<std::int64_t>& rows) {
  at::Tensor result = at::empty({static_cast<std::int64_t>(rows.size())}, at::kDouble);
  double* out = result.data_ptr<double>();
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = values[static_cast<std::size_t>(rows[i])];
  return result;
}

/// Every experiment's rows, checked, each in a random order drawn from (seed, "import",
/// experiment index).
std::vector<std::vector<std::int64_t>> shuffled_experiment_rows(const MeasurementTable& table,
                                                                std::uint64_t seed) {
  if (table.rows() == 0) throw std::invalid_argument(table.source + ": no measurements");
  check_finite(table);
  std::vector<std::vector<std::int64_t>> experiments = rows_by_experiment(table);
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    std::vector<std::int64_t>& rows = experiments[e];
    check_points(table, table.experiment_names[e], rows);
    util::Rng rng(util::derive_seed(seed, "import", e));
    const auto order = rng.sample_without_replacement(static_cast<std::int64_t>(rows.size()),
                                                      static_cast<std::int64_t>(rows.size()));
    std::vector<std::int64_t> shuffled(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      shuffled[i] = rows[static_cast<std::size_t>(order[i])];
    rows = std::move(shuffled);
  }
  return experiments;
}

/// Experiment `e` of the table with its name and its points' x and t, `rows` in order.
template <typename Experiment>
Experiment located(const MeasurementTable& table, std::size_t e,
                   const std::vector<std::int64_t>& rows) {
  Experiment experiment;
  experiment.name = table.experiment_names[e];
  experiment.x = gathered(table.x, rows);
  experiment.t = gathered(table.t, rows);
  return experiment;
}

/// The smallest and largest of `values` [P].
std::pair<double, double> value_extent(const at::Tensor& values) {
  return {values.min().item<double>(), values.max().item<double>()};
}

}  // namespace

std::string MeasurementTable::row_label(std::size_t row) const {
  return lines.empty() ? "row " + std::to_string(row) : "line " + std::to_string(lines[row]);
}

std::vector<MeasuredExperiment> group_experiments(const MeasurementTable& table,
                                                  std::uint64_t seed) {
  if (table.fields.size() != 1 || !table.y.empty())
    throw std::logic_error("group_experiments: one field on a line (group_system_experiments)");
  std::vector<MeasuredExperiment> experiments;
  const auto rows = shuffled_experiment_rows(table, seed);
  for (std::size_t e = 0; e < rows.size(); ++e) {
    auto experiment = located<MeasuredExperiment>(table, e, rows[e]);
    experiment.u = gathered(table.fields[0], rows[e]);
    if (!table.sigma.empty()) experiment.sigma = gathered(table.sigma, rows[e]);
    const auto [x_min, x_max] = value_extent(experiment.x);
    const auto [t_min, t_max] = value_extent(experiment.t);
    experiment.window = {x_min, x_max, t_min, t_max};
    experiments.push_back(std::move(experiment));
  }
  return experiments;
}

MeasuredSystemSet group_system_experiments(const MeasurementTable& table,
                                           const std::vector<std::string>& names,
                                           std::uint64_t seed) {
  if (names.size() != table.fields.size())
    throw std::logic_error("group_system_experiments: a name for every field");
  MeasuredSystemSet set{names, table.y.empty() ? 1 : 2, {}};
  const auto rows = shuffled_experiment_rows(table, seed);
  for (std::size_t e = 0; e < rows.size(); ++e) {
    auto experiment = located<MeasuredSystemExperiment>(table, e, rows[e]);
    std::vector<at::Tensor> fields;
    for (const std::vector<double>& values : table.fields)
      fields.push_back(gathered(values, rows[e]));
    experiment.u = at::stack(fields, 1).contiguous();
    SystemWindow& w = experiment.window;
    std::tie(w.x_min, w.x_max) = value_extent(experiment.x);
    std::tie(w.t_min, w.t_max) = value_extent(experiment.t);
    if (set.dimensions == 2) {
      experiment.y = gathered(table.y, rows[e]);
      std::tie(w.y_min, w.y_max) = value_extent(experiment.y);
    }
    validate(experiment, static_cast<std::int64_t>(names.size()), set.dimensions, table.source);
    set.experiments.push_back(std::move(experiment));
  }
  return set;
}

}  // namespace bhpm::pde
