#pragma once
/// Opening the run folder's HDF5 files for the report: the `format` attribute and the
/// shapes of the arrays are checked, with messages naming the file, the field and the rule.

#include <cstddef>
#include <string>
#include <vector>

#include "io/hdf5_file.h"

namespace bhpm::report {

/// Opens `path` read-only; throws std::runtime_error
/// "PATH: attribute 'format' is 'GOT', expected 'FORMAT'" for a file of another kind
/// (io::Hdf5Error when the file or the attribute is missing).
io::Hdf5Location open_input(const std::string& path, const std::string& format);

/// Reads the numeric array `name` (integers are converted) and checks its shape: the rank
/// must be shape.size() and every non-zero entry of `shape` must match (0 = any extent).
/// Throws std::runtime_error "FILE:/PATH: shape [a, b], expected [c, d] (DIMS)".
io::Hdf5Array<double> read_array(const io::Hdf5Location& location, const std::string& name,
                                 const std::vector<std::size_t>& shape, const std::string& dims);

/// The scalar number attribute `name`, or NaN when the location lacks it.
double number_or_nan(const io::Hdf5Location& location, const std::string& name);

/// The string attribute `name`, or "" when the location lacks it.
std::string string_or_empty(const io::Hdf5Location& location, const std::string& name);

}  // namespace bhpm::report
