#include "cli/system_calibration_command.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "cli/process_setup.h"
#include "cli/system_learning.h"
#include "config/run_layout.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pipeline/system_calibration.h"
#include "pipeline/trained_system.h"
#include "util/random.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

void print_calibration(const pipeline::SystemCalibration& calibration) {
  for (std::size_t i = 0; i < calibration.fields.size(); ++i) {
    const solve::OperatorCalibration& fit = calibration.fits[i];
    std::printf(
        "%s: the posterior's spread scaled by kappa = %.4g in variance (%lld bins of %zu "
        "experiments left out, %lld samples each; each experiment alone:",
        calibration.fields[i].c_str(), fit.factor, static_cast<long long>(fit.bins),
        fit.experiments.size(), static_cast<long long>(fit.samples));
    for (const solve::OperatorBins& bins : fit.experiments) std::printf(" %.3g", bins.factor);
    std::printf(")\n");
  }
}

}  // namespace

int run_system_calibration(const CalibrateCommandOptions& options) {
  if (!options.data_path.empty() || !options.config_path.empty())
    throw std::invalid_argument(
        "bhpm calibrate: --data and --config are not available for a field system's run: it "
        "is calibrated on its model's root rows");
  require_section_settings(options.overrides, "predict", "calibrate");
  const util::Stopwatch stopwatch;
  const config::RunLayout layout{options.run_dir};
  const std::string output = layout.system_calibration();
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm calibrate");
  io::require_output_folder(output);
  const pipeline::TrainedSystem trained =
      pipeline::load_trained_system(layout.system_model(), options.overrides);
  use_threads(0);
  const config::SystemPredictConfig& settings = trained.config.learning.predict;
  pipeline::SystemCalibrationOptions calibration_options;
  calibration_options.samples = settings.samples;
  calibration_options.sampling.features = settings.features;
  calibration_options.sampling.seed =
      util::derive_seed(trained.config.sets.seed, "system_calibration", 0);
  const pipeline::SystemCalibration calibration =
      pipeline::calibrate_system(trained, calibration_options);
  io::write_text_atomically(output, pipeline::system_calibration_json(trained, calibration));
  print_calibration(calibration);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
