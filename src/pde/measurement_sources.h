#pragma once
/// Reading a user's measurements into a MeasurementTable, from
///   CSV       a header line naming the columns, one point per line (io/csv_reader.h);
///             the experiment column holds any text
///   NumPy     an .npz archive (np.savez or np.savez_compressed) of one-dimensional arrays
///   HDF5      one-dimensional datasets at the given paths; NetCDF-4 files are HDF5 files,
///             their variables such datasets
/// In NumPy and HDF5 files the experiment array holds integers (or, in .npz, strings).

#include <string>

#include "pde/measurement_table.h"

namespace bhpm::pde {

enum class MeasurementFileType { kCsv, kNpz, kHdf5 };

/// The type named by `type` ("csv", "npz", "hdf5", "netcdf"), or when empty by the
/// extension of `path` (.csv, .npz, .h5, .hdf5, .he5, .nc, .nc4). Throws naming the file and
/// the types known.
MeasurementFileType measurement_file_type(const std::string& path, const std::string& type);

/// Reads every row of `path`; throws std::invalid_argument naming the file, the line,
/// row or array, and the rule (a missing column, a value that is not a number, arrays of
/// different lengths, ...).
MeasurementTable read_measurement_file(const std::string& path, MeasurementFileType type,
                                       const MeasurementColumns& columns);

}  // namespace bhpm::pde
