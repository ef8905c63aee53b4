#pragma once
/// Dataset files of field systems (version 3, `bhpm simulate` with a [system] section):
/// every experiment set of a simulation in one HDF5 file, readable with h5py alone
/// (docs/dataset-format.md, "Version 3: systems of fields and two space dimensions"):
///   /                        format = "bhpm-dataset", format_version = 3, system, fields
///                            ("u,v"), dimensions (1 or 2), config (resolved TOML), created_by
///   /<set>/                  experiments, n_st, noise, steps, rejected_steps
///   /<set>/x [n_x], /<set>/y [n_y] (2-D only), /<set>/t [T]
///   /<set>/<field> [E, T, n_x] or [E, T, n_y, n_x]
///   /<set>/measurements/{index, x, y (2-D only), t} [E, n_st], <field>, <field>_clean [E, n_st]

#include <cstdint>
#include <string>
#include <vector>

#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/system_experiment_set.h"

namespace bhpm::pde {

/// The format_version of these files.
inline constexpr std::int64_t kSystemDatasetVersion = 3;

struct SystemDatasetMetadata {
  std::string system;               ///< FieldSystem::describe(); empty for version 4
  std::vector<std::string> fields;  ///< [q]
  std::int64_t dimensions = 1;
  std::string config;                                   ///< resolved TOML that produced the file
  std::string created_by;                               ///< program and version
  std::int64_t format_version = kSystemDatasetVersion;  ///< 3, or 4: measurements only

  /// Version 4 (pde/measured_system_file.h): no solution grid, no equations.
  bool measured_only() const { return format_version != kSystemDatasetVersion; }
};

/// Writes the sets to `path` atomically (temporary file, then rename).
void write_system_dataset(const std::string& path, const PeriodicBox& box,
                          const std::vector<SystemExperimentSet>& sets,
                          const SystemDatasetMetadata& metadata);

/// Reads the root attributes of a version 3 file, or of a version 4 file (a system's
/// imported measurements: fields, dimensions and created_by only); errors name the file and
/// the attribute.
SystemDatasetMetadata read_system_dataset_metadata(const std::string& path);

/// The number of experiments of set `set_name` of a version 3 file, 0 when it has no such
/// set (its arrays are not read).
std::int64_t system_set_experiments(const std::string& path, const std::string& set_name);

/// One set of a version 3 file as written: its box, grids and measurements.
struct SystemDataset {
  SystemDatasetMetadata metadata;
  PeriodicBox box;
  SystemExperimentSet set;  ///< steps and rejected_steps as stored
};

/// Reads set `set_name` of a version 3 file. Throws io::Hdf5Error naming the file and the
/// array for a missing set or array, a shape that disagrees with the others, or a value
/// that is not finite; a version 4 file is refused: it has no solution grids.
SystemDataset read_system_dataset(const std::string& path, const std::string& set_name);

}  // namespace bhpm::pde
