#pragma once
/// The dataset `bhpm import` writes from a table of measurements (cli/import_command.h):
/// its experiments grouped, split into train and test by the options, written atomically
/// and, unless quiet, listed one per line.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cli/import_command.h"
#include "pde/measurement_table.h"

namespace bhpm::cli {

/// "--attribute KEY=VALUE" pairs stored on every experiment.
using ImportedAttributes = std::vector<std::pair<std::string, std::string>>;

/// One field on a line as a version 2 file; returns the (train, test) experiment counts.
std::pair<std::size_t, std::size_t> write_one_field_measurements(
    const ImportOptions& options, const pde::MeasurementTable& table,
    const ImportedAttributes& attributes, const std::string& settings);

/// A system's fields (one dimension, or two with a y column) as a version 4 file; returns
/// the (train, test) experiment counts.
std::pair<std::size_t, std::size_t> write_system_measurements(const ImportOptions& options,
                                                              const pde::MeasurementTable& table,
                                                              const ImportedAttributes& attributes,
                                                              const std::string& settings);

}  // namespace bhpm::cli
