#pragma once
/// Dataset files: every experiment set of a simulation in one HDF5 file, readable with
/// h5py alone. Layout (docs/dataset-format.md):
///
/// Version 1 (simulate), version 2 (import) in pde/measured_dataset_file.h, version 3 (systems
/// of fields) in pde/system_dataset_file.h:
///   /                        format = "bhpm-dataset", format_version = 1,
///                            equation, config (resolved TOML), created_by
///   /<set>/                  experiments, n_st, noise, dt
///   /<set>/x [n], /<set>/t [T], /<set>/u [E, T, n]
///   /<set>/measurements/{index [E, n_st] int64, x, t, u, u_clean [E, n_st]}

#include <cstdint>
#include <string>
#include <vector>

#include "pde/experiment_set.h"

namespace bhpm::pde {

/// The root attribute `format` of every dataset file.
inline constexpr const char* kDatasetFormat = "bhpm-dataset";

struct DatasetMetadata {
  std::string equation;             ///< e.g. "u_t = 0.1 u_xx + (-u*u_x)"; empty where unknown
  std::string config;               ///< resolved TOML that produced the file; empty for imports
  std::string created_by;           ///< program and version
  std::int64_t format_version = 1;  ///< 1: simulate's grids; 2: measurements only (import)
  std::string import_settings;      ///< version 2: how `bhpm import` made the file (TOML)
};

/// Writes the sets to `path` atomically (temporary file, then rename).
void write_dataset(const std::string& path, const std::vector<pde::ExperimentSet>& sets,
                   const DatasetMetadata& metadata);

/// Reads one set of a version 1 file back; errors name the file, the group and the missing
/// or malformed field. A version 2 file (no solution grid) is refused, saying so.
pde::ExperimentSet read_experiment_set(const std::string& path, const std::string& name);

/// Reads the root attributes; refuses a file that is not a dataset or is newer than this
/// program reads.
DatasetMetadata read_dataset_metadata(const std::string& path);

/// The number of experiments in set `name` ("train" or "test") of a dataset file of either
/// version (its `experiments` attribute); 0 when the file has no such set.
std::int64_t dataset_experiments(const std::string& path, const std::string& name);

/// The conditions of set `name`'s bounded domain (ExperimentSet::conditions, read from the
/// set's attribute `boundary` alone): "" for a periodic set, a set without the attribute
/// (written before it) or a file without the set.
std::string dataset_conditions(const std::string& path, const std::string& name);

}  // namespace bhpm::pde
