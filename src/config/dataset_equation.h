#pragma once
/// The true equation of a dataset file, for evaluating a learned operator against it.
///
/// `bhpm simulate` stores the resolved configuration that produced a dataset in the root
/// attribute "config" (docs/dataset-format.md); reading its [equation] section again gives
/// the operator F of u_t = F[u] that generated every experiment of the file.

#include <string>

#include "pde/equation.h"

namespace bhpm::config {

/// Reads the stored configuration of the dataset at `path` and builds its equation.
/// Relative paths inside it are taken relative to the dataset's folder. Throws what
/// read_dataset_metadata throws for a missing or malformed file, and ConfigError (source
/// "<path>:/config") or std::invalid_argument naming the file and the field when the
/// stored configuration does not describe a valid equation. Sections other than the
/// simulation's are ignored: the stored text holds every stage's settings.
pde::Equation read_dataset_equation(const std::string& path);

}  // namespace bhpm::config
