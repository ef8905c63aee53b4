#include "cli/calibrate_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/calibration_printer.h"
#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "cli/system_calibration_command.h"
#include "cli/system_learning.h"
#include "config/run_layout.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pipeline/calibration_from_measurements.h"
#include "pipeline/run_calibration.h"
#include "pipeline/run_folder.h"
#include "pipeline/window_calibration.h"
#include "solve/discrepancy_calibration.h"
#include "util/number_format.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// Whether the data conserve the spatial mean of u, and the test that said so
/// (pipeline/mean_conservation.h).
void print_mean_conservation(const pipeline::MeanConservation& conservation) {
  const std::string measure =
      conservation.test == pipeline::ConservationTest::kLeafMeanDrift
          ? "the training leaves move it by " +
                util::format_significant(100.0 * conservation.value, 3) + " % of the variation of u"
          : "its windows are narrower than the period; the root's mean operator is off a "
            "total derivative by " +
                util::format_significant(100.0 * conservation.value, 3) + " %";
  std::printf("spatial mean of u: %s (tolerance %s %%): %s\n", measure.c_str(),
              util::format_significant(100.0 * conservation.tolerance, 3).c_str(),
              conservation.conserved ? "conserved" : "not conserved");
}

/// The calibration of `method` on the training set of `data_path`, printed.
solve::DiscrepancyCalibration calibrate_run(const CalibrateCommandOptions& options,
                                            pipeline::TrainedRun& run, const std::string& data_path,
                                            const std::string& method) {
  if (method == "operator") {
    const pipeline::RunCalibration fit =
        pipeline::calibrate_by_operator(options.run_dir, run, data_path);
    print_mean_conservation(fit.conservation);
    print_operator_calibration(fit.calibration);
    return fit.calibration;
  }
  const auto progress = [&options](const std::string& line) {
    if (!options.quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  if (method == "windows") {
    const pipeline::RunCalibration fit =
        pipeline::calibrate_by_windows(options.run_dir, run, data_path, progress);
    print_mean_conservation(fit.conservation);
    print_window_calibration(fit.calibration);
    return fit.calibration;
  }
  const pipeline::RunCalibration fit =
      pipeline::calibrate_by_trajectories(options.run_dir, run, data_path, progress);
  print_mean_conservation(fit.conservation);
  print_calibration(fit.calibration);
  return fit.calibration;
}

}  // namespace

void setup_calibrate(CLI::App& app) {
  auto options = std::make_shared<CalibrateCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Fit the operator samples' model discrepancy on the training experiments (their "
      "solution grids, or their measurements alone)");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--data", options->data_path,
                      "Dataset whose training experiments calibrate (default RUN_DIR/data.h5)");
  add_setting_flag(*command, options->overrides, "--samples", "predict.calibration_samples",
                   "Samples per training experiment and setting (>= 2)");
  add_override_option(*command, options->overrides,
                      "Override a setting, e.g. --set predict.sampler=pathwise");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr, only the result");
  command->callback([options] { throw CLI::RuntimeError(run_calibrate(*options)); });
}

int run_calibrate(const CalibrateCommandOptions& options) {
  if (holds_a_system(options.run_dir)) return run_system_calibration(options);
  const util::Stopwatch stopwatch;
  const config::RunLayout layout{options.run_dir};
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm calibrate");
  io::require_output_folder(layout.discrepancy());
  pipeline::TrainedRun run =
      pipeline::load_trained_run(options.run_dir, options.overrides, options.config_path);
  for (at::Tensor& parameter : run.root->parameters()) parameter.requires_grad_(false);
  const std::string data_path = options.data_path.empty() ? layout.data() : options.data_path;
  if (!std::filesystem::exists(data_path))
    throw std::invalid_argument("calibrate: " + data_path +
                                " is missing (the training experiments)");
  const std::string method =
      pipeline::resolved_calibration_method(run.config.predict.calibration_method, data_path);
  use_threads(0);
  const solve::DiscrepancyCalibration calibration = calibrate_run(options, run, data_path, method);
  solve::write_discrepancy_file(layout.discrepancy(), calibration, run.config.resolved_toml);
  std::printf("wrote %s (%.1f s)\n", layout.discrepancy().c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
