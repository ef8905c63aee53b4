#pragma once
/// Dataset files of version 2 (`bhpm import`): measurements only, ragged experiments, each
/// on its own window, no solution grid. Layout (docs/dataset-format.md):
///
///   /              format = "bhpm-dataset", format_version = 2, created_by,
///                  equation (optional: the operator where it is known)
///   /<set>/        experiments (int64); <set> is "train" or "test"
///   /<set>/<e>/    e = 0, 1, ...: name, x_min, x_max, t_min, t_max, free string attributes;
///                  x, t, u [P] and optionally sigma [P]

#include <string>
#include <vector>

#include "pde/dataset_file.h"
#include "pde/measured_experiment.h"

namespace bhpm::pde {

/// Writes `train` and, when not empty, `test` to a version 2 file at `path` atomically
/// (temporary file, then rename). `metadata.config` is stored when not empty.
void write_measured_dataset(const std::string& path, const std::vector<MeasuredExperiment>& train,
                            const std::vector<MeasuredExperiment>& test,
                            const DatasetMetadata& metadata);

/// The measurements of set `name` from a version 1 file (simulate's measured points, on
/// the grid's window) or a version 2 file; every experiment validated. Errors name the
/// file, the group and the rule.
std::vector<MeasuredExperiment> read_measured_set(const std::string& path, const std::string& name);

}  // namespace bhpm::pde
