#include "cli/prediction_output.h"

#include "config/run_layout.h"

namespace bhpm::cli {

std::string prediction_output(const PredictCommandOptions& options) {
  return options.output_path.empty() ? config::RunLayout{options.run_dir}.prediction()
                                     : options.output_path;
}

std::vector<std::string> prediction_overrides(const PredictCommandOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), options.flag_overrides.begin(), options.flag_overrides.end());
  return overrides;
}

}  // namespace bhpm::cli
