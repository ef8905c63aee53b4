#pragma once
/// Dataset files of version 4 (`bhpm import` with several fields or a y column): a system's
/// measurements only, ragged experiments, each on its own window, no solution grid. Layout
/// (docs/dataset-format.md, "Version 4: a system's measurements"):
///
///   /              format = "bhpm-dataset", format_version = 4, fields ("u,v"),
///                  dimensions (1 or 2), created_by, import (the settings, TOML)
///   /<set>/        experiments (int64); <set> is "train" or "test"
///   /<set>/<e>/    e = 0, 1, ...: name, x_min, x_max, [y_min, y_max,] t_min, t_max, free
///                  string attributes; x, [y,] t and one array per field, each [P]

#include <cstdint>
#include <string>
#include <vector>

#include "pde/measured_system.h"

namespace bhpm::pde {

/// The format_version of these files.
inline constexpr std::int64_t kMeasuredSystemVersion = 4;

/// Writes `train` and, when it holds experiments, `test` (their fields and dimensions as
/// `train`'s) to `path` atomically (temporary file, then rename), with `created_by` and
/// `import_settings` as root attributes.
void write_measured_system_dataset(const std::string& path, const MeasuredSystemSet& train,
                                   const MeasuredSystemSet& test, const std::string& created_by,
                                   const std::string& import_settings);

/// Whether `path` is a dataset of this version (its root attributes only are read).
bool holds_measured_system(const std::string& path);

/// Set `name` of a version 4 file, every experiment validated. Errors name the file, the
/// group and the rule.
MeasuredSystemSet read_measured_system_set(const std::string& path, const std::string& name);

}  // namespace bhpm::pde
