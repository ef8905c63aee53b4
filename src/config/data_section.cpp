#include "config/data_section.h"

namespace bhpm::config {

DataSection read_data_section(ConfigSection& section, std::int64_t default_train,
                              std::int64_t default_test) {
  DataSection data;
  data.train_experiments = section.integer_at_least("train_experiments", default_train, 1);
  data.test_experiments = section.integer_at_least("test_experiments", default_test, 0);
  data.measurements.n_st = section.integer("n_st", 8192);
  data.measurements.noise = section.number("noise", 0.0);
  return data;
}

}  // namespace bhpm::config
