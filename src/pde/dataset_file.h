#pragma once
/// Dataset files: every experiment set of a simulation in one HDF5 file, readable with
/// h5py alone. Layout (docs/dataset-format.md):
///
///   /                        format = "bhpm-dataset", format_version = 1,
///                            equation, config (resolved TOML), created_by
///   /<set>/                  experiments, n_st, noise, dt
///   /<set>/x [n], /<set>/t [T], /<set>/u [E, T, n]
///   /<set>/measurements/{index [E, n_st] int64, x, t, u, u_clean [E, n_st]}

#include <string>
#include <vector>

#include "pde/experiment_set.h"

namespace bhpm::pde {

struct DatasetMetadata {
  std::string equation;    ///< e.g. "u_t = 0.1 u_xx + (-u*u_x)"
  std::string config;      ///< resolved TOML that produced the file
  std::string created_by;  ///< program and version
};

/// Writes the sets to `path` atomically (temporary file, then rename).
void write_dataset(const std::string& path, const std::vector<pde::ExperimentSet>& sets,
                   const DatasetMetadata& metadata);

/// Reads one set back; errors name the file, the group and the missing or malformed field.
pde::ExperimentSet read_experiment_set(const std::string& path, const std::string& name);

/// Reads the root attributes.
DatasetMetadata read_dataset_metadata(const std::string& path);

}  // namespace bhpm::pde
