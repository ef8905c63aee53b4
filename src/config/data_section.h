#pragma once
/// The [data] section of a simulation: how many training and held-out experiments, and
/// their measurements (points per experiment and noise), for `bhpm simulate` of one field
/// (config/simulate_config.h) and of a system (config/system_config.h).

#include <cstdint>

#include "config/config_reader.h"
#include "pde/experiment_set.h"

namespace bhpm::config {

struct DataSection {
  std::int64_t train_experiments = 0;
  std::int64_t test_experiments = 0;
  pde::MeasurementOptions measurements;
};

/// Reads train_experiments (>= 1), test_experiments (>= 0), n_st and noise with the counts'
/// defaults given; n_st and noise are checked against the grid by the caller, which knows it.
DataSection read_data_section(ConfigSection& section, std::int64_t default_train,
                              std::int64_t default_test);

}  // namespace bhpm::config
