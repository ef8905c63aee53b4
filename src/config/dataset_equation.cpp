#include "config/dataset_equation.h"

#include <filesystem>
#include <stdexcept>

#include "config/config_reader.h"
#include "config/simulate_config.h"
#include "pde/dataset_file.h"

namespace bhpm::config {

pde::Equation read_dataset_equation(const std::string& path) {
  const pde::DatasetMetadata metadata = pde::read_dataset_metadata(path);
  if (metadata.config.empty())
    throw std::invalid_argument(path +
                                ": the dataset names no true equation (it holds measurements "
                                "only, as bhpm import writes them); this step needs one");
  ConfigReader reader = ConfigReader::from_string(metadata.config, path + ":/config");
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  const SimulateConfig config = read_simulate_config(reader, base_dir);
  // The reader names fields "<path>:/config: equation.nu": make_equation's errors name the file.
  return pde::make_equation(config.equation);
}

}  // namespace bhpm::config
