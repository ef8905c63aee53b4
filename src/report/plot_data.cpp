#include "report/plot_data.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <utility>

#include "util/number_format.h"

namespace bhpm::report {

namespace {

void write_floats(std::ofstream& file, const double* values, std::size_t count) {
  std::vector<float> single(values, values + count);
  file.write(reinterpret_cast<const char*>(single.data()),
             static_cast<std::streamsize>(count * sizeof(float)));
}

void require_written(const std::ofstream& file, const std::string& path) {
  if (!file) throw std::runtime_error(path + ": could not be written");
}

bool row_is_finite(const Columns& columns, std::size_t row) {
  for (const auto& column : columns)
    if (!std::isfinite(column[row])) return false;
  return true;
}

/// Writes the finite rows; returns how many.
std::size_t write_block(std::ofstream& file, const Columns& columns) {
  const std::size_t rows = columns.empty() ? 0 : columns.front().size();
  for (const auto& column : columns)
    if (column.size() != rows)
      throw std::invalid_argument("plot data: columns of one block differ in length (" +
                                  std::to_string(column.size()) + " and " + std::to_string(rows) +
                                  ")");
  std::size_t written = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    if (!row_is_finite(columns, row)) continue;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      file << (c ? " " : "") << util::format_significant(columns[c][row], 10);
    }
    file << '\n';
    ++written;
  }
  return written;
}

}  // namespace

void check_grid_field(const GridField& field, const std::string& what) {
  if (field.columns.empty() || field.rows.empty() ||
      field.values.size() != field.columns.size() * field.rows.size())
    throw std::invalid_argument(what + ": expected " + std::to_string(field.rows.size()) + " x " +
                                std::to_string(field.columns.size()) +
                                " values (t by x, both non-empty), got " +
                                std::to_string(field.values.size()));
}

void write_binary_matrix(const std::string& path, const GridField& field) {
  check_grid_field(field, path);
  std::ofstream file(path, std::ios::binary);
  const double count = static_cast<double>(field.columns.size());
  write_floats(file, &count, 1);
  write_floats(file, field.columns.data(), field.columns.size());
  for (std::size_t i = 0; i < field.rows.size(); ++i) {
    write_floats(file, &field.rows[i], 1);
    write_floats(file, field.values.data() + i * field.columns.size(), field.columns.size());
  }
  require_written(file, path);
}

std::pair<double, double> finite_range(const std::vector<double>& values) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const double value : values)
    if (std::isfinite(value)) {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  return low <= high ? std::make_pair(low, high) : std::make_pair(0.0, 0.0);
}

void write_column_blocks(const std::string& path, const std::vector<Columns>& blocks) {
  std::ofstream file(path);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (b) file << "\n\n";
    if (write_block(file, blocks[b]) == 0)
      throw std::invalid_argument(
          path + ": block " + std::to_string(b) +
          " has no finite row (gnuplot would renumber the blocks after it)");
  }
  require_written(file, path);
}

}  // namespace bhpm::report
