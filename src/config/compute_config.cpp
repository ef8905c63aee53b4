#include "config/compute_config.h"

#include <stdexcept>

#include "util/device.h"

namespace bhpm::config {

ComputeConfig read_compute_config(ConfigReader& reader) {
  ConfigSection section = reader.section("compute");
  const std::string text = section.string("device", "cpu");
  ComputeConfig config;
  try {
    config.device = util::parse_device(text, section.field("device"));
  } catch (const std::invalid_argument&) {
    section.require(false, "device", "must be \"cpu\", \"cuda\" or \"cuda:N\"", "\"" + text + "\"");
  }
  return config;
}

}  // namespace bhpm::config
