#pragma once
/// Data files that gnuplot scripts plot: fields on a grid as gnuplot's "binary matrix"
/// and curves as text columns.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace bhpm::report {

/// A field sampled on a tensor grid: values[i * columns.size() + j] at (columns[j], rows[i]),
/// e.g. u(x, t) with columns = x [n], rows = t [T] and values [T, n] row-major.
struct GridField {
  std::vector<double> columns;
  std::vector<double> rows;
  std::vector<double> values;
};

/// Throws std::invalid_argument naming `what` unless values.size() == rows * columns and
/// both axes are non-empty.
void check_grid_field(const GridField& field, const std::string& what);

/// Writes `field` in gnuplot's nonuniform binary matrix layout (native float32): first
/// n, x_0 .. x_{n-1}; then per row t_i, u(x_0, t_i) .. u(x_{n-1}, t_i). Plot it with
/// `plot 'FILE' binary matrix with image`.
void write_binary_matrix(const std::string& path, const GridField& field);

/// Lowest and highest finite value of `values` (first, second); {0, 0} when none is finite.
std::pair<double, double> finite_range(const std::vector<double>& values);

/// Text data in blocks: block b is rows of blocks[b][column][row], one line per row with
/// %.10g numbers; blocks are separated by two blank lines (gnuplot's `index b`). Rows
/// holding a non-finite number are left out, so that lines join the defined points.
/// Every column of a block must have the same length and every block a finite row (gnuplot
/// skips empty blocks when it numbers them); std::invalid_argument otherwise.
using Columns = std::vector<std::vector<double>>;
void write_column_blocks(const std::string& path, const std::vector<Columns>& blocks);

}  // namespace bhpm::report
