#include "cli/fit_leaves_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "cli/training_printer.h"
#include "config/run_layout.h"
#include "io/folder_lock.h"
#include "model/bhpm_training.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"

namespace bhpm::cli {

void setup_fit_leaves(CLI::App& app) {
  auto options = std::make_shared<TrainingCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "fit-leaves", "Phase 1 of training: fit one leaf network per training experiment");
  add_training_options(*command, *options);
  command->callback([options] { throw CLI::RuntimeError(run_fit_leaves(*options)); });
}

int run_fit_leaves(const TrainingCommandOptions& options) {
  TrainingInputs inputs = load_training_inputs(options);  // makes the run folder
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm fit-leaves");
  const std::int64_t n = inputs.data.leaves();
  config::LeafConfig& config = inputs.config.leaves;
  config.model.network.leaves = n;
  config.training.checkpoint_path = config::RunLayout{options.run_dir}.leaves_checkpoint();
  config.training.history_path = config::RunLayout{options.run_dir}.history("leaves");
  model::LeafModel leaves(config.model);
  const model::LeafTrainingResult result =
      model::train_leaves(*leaves, inputs.data, config.training, training_printer(options.quiet));

  const at::Tensor sigma = leaves->noise_scale().detach();
  std::printf("fitted %lld leaves on %lld points each%s: final nll %.5g, sigma",
              static_cast<long long>(n), static_cast<long long>(inputs.data.points()),
              result.resumed_from > 0
                  ? (" (resumed at " + std::to_string(result.resumed_from) + ")").c_str()
                  : "",
              result.final_loss);
  for (std::int64_t i = 0; i < n; ++i) std::printf(" %.4g", sigma[i].item<double>());
  std::printf("\n");
  print_leaf_early_stopping(result.kept_iterations, result.validation_rmse);
  std::printf("checkpoint: %s\n", config.training.checkpoint_path.c_str());
  return 0;
}

}  // namespace bhpm::cli
