#pragma once
/// Measurements as a flat table, one row per point (experiment, x[, y], t, every field[,
/// sigma]): what `bhpm import` reads from a CSV, NumPy or HDF5 file, before it becomes
/// experiments: of one field on a line (pde/measured_experiment.h) or of a system
/// (pde/measured_system.h).

#include <cstdint>
#include <string>
#include <vector>

#include "pde/measured_experiment.h"
#include "pde/measured_system.h"

namespace bhpm::pde {

/// The names of the table's columns (CSV) or arrays (NumPy, HDF5) in the input file.
struct MeasurementColumns {
  std::string experiment = "experiment";
  std::string x = "x";
  std::string y;  ///< empty: one space dimension
  std::string t = "t";
  std::vector<std::string> fields = {"u"};  ///< [q] the column of each measured field
  std::string sigma = "sigma";              ///< optional unless sigma_required; empty: not read
  bool sigma_required = false;  ///< the user named the sigma column: its absence is an error

  /// Several fields or a y column: a system's measurements (pde/measured_system.h).
  bool of_a_system() const { return fields.size() != 1 || !y.empty(); }
};

struct MeasurementTable {
  std::string source;  ///< the input file, for messages
  MeasurementColumns columns;
  std::vector<std::string> experiment_names;  ///< in order of first appearance
  std::vector<std::int64_t> experiment;       ///< [rows] index into experiment_names
  std::vector<double> x, y, t;                ///< [rows]; y empty in one dimension
  std::vector<std::vector<double>> fields;    ///< [q][rows]
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
/// Inf, sigma <= 0, two rows of one experiment at the same (x[, y], t), an experiment with
/// fewer than 2 points or with zero extent in x, y or t. One field and no y column.
std::vector<MeasuredExperiment> group_experiments(const MeasurementTable& table,
                                                  std::uint64_t seed);

/// The same for a system: the fields `names` [q] (the table's fields in order), in
/// one dimension or, with a y column, two; sigma is not read.
MeasuredSystemSet group_system_experiments(const MeasurementTable& table,
                                           const std::vector<std::string>& names,
                                           std::uint64_t seed);

}  // namespace bhpm::pde
