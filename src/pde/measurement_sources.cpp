#include "pde/measurement_sources.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "io/csv_reader.h"
#include "io/hdf5_file.h"
#include "io/npz_archive.h"
#include "util/number_format.h"

namespace bhpm::pde {

namespace {

/// A table of `columns` without rows, read from `path`.
MeasurementTable empty_table(const std::string& path, const MeasurementColumns& columns) {
  MeasurementTable table;
  table.source = path;
  table.columns = columns;
  table.fields.resize(columns.fields.size());
  return table;
}

/// Experiment names to indices in order of first appearance.
class ExperimentIndex {
 public:
  explicit ExperimentIndex(MeasurementTable& table) : table_(table) {}
  void add(const std::string& name) {
    const auto [found, added] =
        index_.emplace(name, static_cast<std::int64_t>(table_.experiment_names.size()));
    if (added) table_.experiment_names.push_back(name);
    table_.experiment.push_back(found->second);
  }

 private:
  MeasurementTable& table_;
  std::unordered_map<std::string, std::int64_t> index_;
};

MeasurementTable read_csv(const std::string& path, const MeasurementColumns& columns) {
  MeasurementTable table = empty_table(path, columns);
  io::CsvReader reader(path);
  const std::size_t experiment = reader.column(columns.experiment), x = reader.column(columns.x),
                    t = reader.column(columns.t);
  const bool two = !columns.y.empty();
  const std::size_t y = two ? reader.column(columns.y) : 0;
  std::vector<std::size_t> fields;
  for (const std::string& name : columns.fields) fields.push_back(reader.column(name));
  const bool has_sigma =
      columns.sigma_required || (!columns.sigma.empty() && reader.has_column(columns.sigma));
  const std::size_t sigma = has_sigma ? reader.column(columns.sigma) : 0;
  ExperimentIndex index(table);
  while (reader.next()) {
    const std::string name(reader.field(experiment));
    if (name.empty())
      throw std::invalid_argument(reader.where() + ", column '" + columns.experiment +
                                  "': empty experiment name");
    index.add(name);
    table.x.push_back(reader.number(x));
    if (two) table.y.push_back(reader.number(y));
    table.t.push_back(reader.number(t));
    for (std::size_t f = 0; f < fields.size(); ++f)  // a system's empty cell: not measured
      table.fields[f].push_back(columns.of_a_system() && reader.field(fields[f]).empty()
                                    ? std::numeric_limits<double>::quiet_NaN()
                                    : reader.number(fields[f]));
    if (has_sigma) table.sigma.push_back(reader.number(sigma));
    table.lines.push_back(reader.line());
  }
  return table;
}

/// Experiment ids from a numeric array: integers, written as names.
void add_numeric_experiments(const std::vector<double>& ids, const std::string& where,
                             MeasurementTable& table) {
  ExperimentIndex index(table);
  for (std::size_t row = 0; row < ids.size(); ++row) {
    if (!std::isfinite(ids[row]) || ids[row] != std::round(ids[row]))
      throw std::invalid_argument(where + ": row " + std::to_string(row) + ": experiment id " +
                                  util::format_significant(ids[row], 10) + " is not an integer");
    index.add(util::format_significant(ids[row], 17));
  }
}

void require_rows(const std::vector<double>& values, std::size_t rows, const std::string& where) {
  if (values.size() != rows)
    throw std::invalid_argument(where + " has " + std::to_string(values.size()) +
                                " values, the experiment array has " + std::to_string(rows));
}

/// Reads the x, [y,] t, field (and sigma) arrays through `read`, checks their lengths
/// against the experiment column's; `has` says whether an optional array exists.
template <typename Read, typename Has>
void read_value_arrays(const Read& read, const Has& has, const std::string& path,
                       MeasurementTable& table) {
  const MeasurementColumns& c = table.columns;
  std::vector<std::pair<const std::string*, std::vector<double>*>> arrays = {{&c.x, &table.x},
                                                                             {&c.t, &table.t}};
  if (!c.y.empty()) arrays.emplace_back(&c.y, &table.y);
  for (std::size_t f = 0; f < c.fields.size(); ++f)
    arrays.emplace_back(&c.fields[f], &table.fields[f]);
  for (const auto& [name, target] : arrays) {
    *target = read(*name);
    require_rows(*target, table.experiment.size(), path + ": array '" + *name + "'");
  }
  if (c.sigma_required || (!c.sigma.empty() && has(c.sigma))) {
    table.sigma = read(c.sigma);
    require_rows(table.sigma, table.experiment.size(), path + ": array '" + c.sigma + "'");
  }
}

MeasurementTable read_npz(const std::string& path, const MeasurementColumns& columns) {
  MeasurementTable table = empty_table(path, columns);
  const io::NpzArchive archive(path);
  const auto read_numbers = [&](const std::string& name) {
    io::NpyArray array = archive.array(name);
    if (array.is_text)
      throw std::invalid_argument(path + ": array '" + name + "' holds text, not numbers");
    return array.numbers;
  };
  const io::NpyArray ids = archive.array(columns.experiment);
  if (ids.is_text) {
    ExperimentIndex index(table);
    for (const std::string& name : ids.strings) index.add(name);
  } else {
    add_numeric_experiments(ids.numbers, path + ": array '" + columns.experiment + "'", table);
  }
  read_value_arrays(
      read_numbers, [&](const std::string& name) { return archive.has(name); }, path, table);
  return table;
}

MeasurementTable read_hdf5(const std::string& path, const MeasurementColumns& columns) {
  MeasurementTable table = empty_table(path, columns);
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  const auto read_numbers = [&](const std::string& name) {
    if (!file.has(name))
      throw std::invalid_argument(path + ": no array '" + name +
                                  "' (name the arrays with --column, e.g. --column x=/data/x)");
    io::Hdf5Array<double> array = file.read_doubles(name);
    if (array.shape.size() != 1)
      throw std::invalid_argument(path + ": array '" + name + "' has " +
                                  std::to_string(array.shape.size()) +
                                  " dimensions (one is needed)");
    return array.values;
  };
  add_numeric_experiments(read_numbers(columns.experiment),
                          path + ": array '" + columns.experiment + "'", table);
  read_value_arrays(
      read_numbers, [&](const std::string& name) { return file.has(name); }, path, table);
  return table;
}

}  // namespace

MeasurementFileType measurement_file_type(const std::string& path, const std::string& type) {
  std::string name = type;
  if (name.empty()) {
    name = std::filesystem::path(path).extension().string();
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    if (!name.empty()) name.erase(0, 1);
  }
  if (name == "csv") return MeasurementFileType::kCsv;
  if (name == "npz") return MeasurementFileType::kNpz;
  if (name == "h5" || name == "hdf5" || name == "he5" || name == "nc" || name == "nc4" ||
      name == "netcdf")
    return MeasurementFileType::kHdf5;
  throw std::invalid_argument(
      path + ": unknown file type " + (type.empty() ? "'." + name + "'" : "'" + type + "'") +
      " (known: .csv, .npz, .h5/.hdf5, .nc NetCDF-4; or name one with --type csv|npz|hdf5)");
}

MeasurementTable read_measurement_file(const std::string& path, MeasurementFileType type,
                                       const MeasurementColumns& columns) {
  switch (type) {
    case MeasurementFileType::kCsv:
      return read_csv(path, columns);
    case MeasurementFileType::kNpz:
      return read_npz(path, columns);
    case MeasurementFileType::kHdf5:
      return read_hdf5(path, columns);
  }
  throw std::logic_error("read_measurement_file: unknown type");
}

}  // namespace bhpm::pde
