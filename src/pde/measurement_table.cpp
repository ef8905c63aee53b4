#include "pde/measurement_table.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "util/number_format.h"
#include "util/random.h"

namespace bhpm::pde {

namespace {

void check_finite(const MeasurementTable& table) {
  const std::vector<std::pair<const std::string*, const std::vector<double>*>> columns = {
      {&table.columns.x, &table.x},
      {&table.columns.t, &table.t},
      {&table.columns.u, &table.u},
      {&table.columns.sigma, &table.sigma}};
  for (std::size_t row = 0; row < table.rows(); ++row)
    for (const auto& [name, values] : columns) {
      if (values->empty()) continue;
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

/// Row indices of every experiment, in file order.
std::vector<std::vector<std::int64_t>> rows_by_experiment(const MeasurementTable& table) {
  std::vector<std::vector<std::int64_t>> rows(table.experiment_names.size());
  for (std::size_t row = 0; row < table.rows(); ++row)
    rows[static_cast<std::size_t>(table.experiment[row])].push_back(static_cast<std::int64_t>(row));
  return rows;
}

void check_points(const MeasurementTable& table, const std::string& name,
                  std::vector<std::int64_t> rows) {
  const std::string where = table.source + ": experiment '" + name + "'";
  if (rows.size() < 2)
    throw std::invalid_argument(where + " has " + std::to_string(rows.size()) +
                                " point (a leaf needs at least 2)");
  std::sort(rows.begin(), rows.end(), [&](std::int64_t a, std::int64_t b) {
    return std::pair(table.x[a], table.t[a]) < std::pair(table.x[b], table.t[b]);
  });
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::int64_t a = rows[i - 1], b = rows[i];
    if (table.x[a] == table.x[b] && table.t[a] == table.t[b])
      throw std::invalid_argument(
          where + ": " + table.row_label(a) + " and " + table.row_label(b) +
          " measure the same point (x, t) = (" + util::format_significant(table.x[a], 10) + ", " +
          util::format_significant(table.t[a], 10) + "); average or remove the repeats first");
  }
  for (const auto& [axis, values] : {std::pair{"x", &table.x}, {"t", &table.t}}) {
    const auto [low, high] = std::minmax_element(
        rows.begin(), rows.end(), [&](auto a, auto b) { return (*values)[a] < (*values)[b]; });
    if ((*values)[*low] == (*values)[*high])
      throw std::invalid_argument(
          where + ": all its " + std::to_string(rows.size()) + " points have " + axis + " = " +
          util::format_significant((*values)[*low], 10) + ": zero extent in " + axis +
          " (a leaf needs a window of positive size in x and t)");
  }
}

at::Tensor gathered(const std::vector<double>& values, const std::vector<std::int64_t>& rows) {
  at::Tensor result = at::empty({static_cast<std::int64_t>(rows.size())}, at::kDouble);
  double* out = result.data_ptr<double>();
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = values[static_cast<std::size_t>(rows[i])];
  return result;
}

MeasuredExperiment experiment_of(const MeasurementTable& table, const std::string& name,
                                 std::vector<std::int64_t> rows, std::uint64_t seed,
                                 std::uint64_t index) {
  util::Rng rng(util::derive_seed(seed, "import", index));
  const auto order = rng.sample_without_replacement(static_cast<std::int64_t>(rows.size()),
                                                    static_cast<std::int64_t>(rows.size()));
  std::vector<std::int64_t> shuffled(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    shuffled[i] = rows[static_cast<std::size_t>(order[i])];
  MeasuredExperiment experiment;
  experiment.name = name;
  experiment.x = gathered(table.x, shuffled);
  experiment.t = gathered(table.t, shuffled);
  experiment.u = gathered(table.u, shuffled);
  if (!table.sigma.empty()) experiment.sigma = gathered(table.sigma, shuffled);
  experiment.window = {experiment.x.min().item<double>(), experiment.x.max().item<double>(),
                       experiment.t.min().item<double>(), experiment.t.max().item<double>()};
  return experiment;
}

}  // namespace

std::string MeasurementTable::row_label(std::size_t row) const {
  return lines.empty() ? "row " + std::to_string(row) : "line " + std::to_string(lines[row]);
}

std::vector<MeasuredExperiment> group_experiments(const MeasurementTable& table,
                                                  std::uint64_t seed) {
  if (table.rows() == 0) throw std::invalid_argument(table.source + ": no measurements");
  check_finite(table);
  std::vector<MeasuredExperiment> experiments;
  const auto rows = rows_by_experiment(table);
  for (std::size_t e = 0; e < rows.size(); ++e) {
    check_points(table, table.experiment_names[e], rows[e]);
    experiments.push_back(experiment_of(table, table.experiment_names[e], rows[e], seed, e));
  }
  return experiments;
}

}  // namespace bhpm::pde
