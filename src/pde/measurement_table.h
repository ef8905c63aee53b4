#pragma once
/// Measurements as a flat table, one row per point (experiment, x, t, u[, sigma]): what
/// `bhpm import` reads from a CSV, NumPy or HDF5 file, before it becomes experiments.

#include <cstdint>
#include <string>
#include <vector>

#include "pde/measured_experiment.h"

namespace bhpm::pde {

/// The names of the table's columns (CSV) or arrays (NumPy, HDF5) in the input file.
struct MeasurementColumns {
  std::string experiment = "experiment";
  std::string x = "x";
  std::string t = "t";
  std::string u = "u";
  std::string sigma = "sigma";  ///< optional unless sigma_required
  bool sigma_required = false;  ///< the user named the sigma column: its absence is an error
};

struct MeasurementTable {
  std::string source;  ///< the input file, for messages
  MeasurementColumns columns;
  std::vector<std::string> experiment_names;  ///< in order of first appearance
  std::vector<std::int64_t> experiment;       ///< [rows] index into experiment_names
  std::vector<double> x, t, u;                ///< [rows]
  std::vector<double> sigma;                  ///< [rows], or empty when the file has none
  std::vector<std::int64_t> lines;  ///< [rows] the row's line in a text file; empty otherwise

  std::size_t rows() const { return x.size(); }
  /// "line 17" (text files) or "row 16" (arrays, counted from 0).
  std::string row_label(std::size_t row) const;
  /// "FILE: line 17" or "FILE: row 16".
  std::string where(std::size_t row) const { return source + ": " + row_label(row); }
};

/// The table's experiments, in order of first appearance, each with its points in a random
/// order drawn from (seed, "import", experiment index) and its window the points' bounding
/// box. Throws std::invalid_argument naming the file, the row and the rule: a value NaN or
/// Inf, sigma <= 0, two rows of one experiment at the same (x, t), an experiment with
/// fewer than 2 points or with zero extent in x or in t.
std::vector<MeasuredExperiment> group_experiments(const MeasurementTable& table,
                                                  std::uint64_t seed);

}  // namespace bhpm::pde
