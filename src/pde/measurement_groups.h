#pragma once
/// What the files of measurements share (version 2, pde/measured_dataset_file.h, and
/// version 4, pde/measured_system_file.h): a set is a group with an `experiments` count
/// and experiments 0, 1, ... as groups carrying free text attributes beside their window.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/hdf5_file.h"

namespace bhpm::pde {

/// Set `name` of `file` for `experiments` experiments: its group, with its count.
io::Hdf5Location create_set(const io::Hdf5Location& file, const std::string& name,
                            std::size_t experiments);

/// The groups of the experiments of set `name` of `file` in order; throws io::Hdf5Error
/// naming the set when its `experiments` count is not a positive integer or a group is
/// missing.
std::vector<io::Hdf5Location> experiment_groups(const io::Hdf5Location& file,
                                                const std::string& name);

/// Every attribute of `group` not in `reserved`, numbers formatted as text (attributes
/// that h5py users add may be numbers).
std::vector<std::pair<std::string, std::string>> free_attributes(
    const io::Hdf5Location& group, const std::vector<std::string>& reserved);

}  // namespace bhpm::pde
