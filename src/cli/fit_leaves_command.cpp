#include "cli/fit_leaves_command.h"

#include <CLI/CLI.hpp>
#include <ATen/ATen.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/process_setup.h"
#include "cli/training_printer.h"
#include "io/dataset_file.h"
#include "io/run_config.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"

namespace bhpm::cli {

void setup_fit_leaves(CLI::App& app) {
  auto options = std::make_shared<FitLeavesOptions>();
  CLI::App* command = app.add_subcommand(
      "fit-leaves", "Phase 1 of training: fit one leaf network per training experiment");
  command->add_option("config", options->config_path, "Configuration file (TOML)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--data", options->data_path, "Dataset from `bhpm simulate` (HDF5)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->run_dir, "Run folder (created if missing)")
      ->required();
  command->add_option("--experiments", options->experiments,
                      "N: use the first N training experiments (default: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--points", options->points,
                      "n_st: use the first n_st measurements of each (default: all)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--set", options->overrides,
                      "Override a configuration value: section.key=value (repeatable)");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command->callback([options] { throw CLI::RuntimeError(run_fit_leaves(*options)); });
}

int run_fit_leaves(const FitLeavesOptions& options) {
  io::RunConfig config = io::read_run_config(options.config_path, options.overrides);
  use_threads(0);  // training is compute-bound: every core
  const pde::ExperimentSet set = io::read_experiment_set(options.data_path, "train");
  const std::int64_t n = options.experiments > 0 ? options.experiments : set.sample_u.size(0);
  const std::int64_t points = options.points > 0 ? options.points : set.sample_u.size(1);
  const model::LeafData data =
      model::leaf_data_from_set(set, n, points, options.data_path + ":/train");

  std::filesystem::create_directories(options.run_dir);
  config.leaves.model.network.leaves = n;
  config.leaves.training.checkpoint_path = (std::filesystem::path(options.run_dir) / "leaves.ckpt").string();
  model::LeafModel leaves(config.leaves.model);
  const model::LeafTrainingResult result = model::train_leaves(
      *leaves, data, config.leaves.training, training_printer(options.quiet));

  const at::Tensor sigma = leaves->noise_scale().detach();
  std::printf("fitted %lld leaves on %lld points each%s: final nll %.5g, sigma",
              static_cast<long long>(n), static_cast<long long>(points),
              result.resumed_from > 0 ? (" (resumed at " + std::to_string(result.resumed_from) + ")").c_str() : "",
              result.final_loss);
  for (std::int64_t i = 0; i < n; ++i) std::printf(" %.4g", sigma[i].item<double>());
  std::printf("\ncheckpoint: %s\n", config.leaves.training.checkpoint_path.c_str());
  return 0;
}

}  // namespace bhpm::cli
