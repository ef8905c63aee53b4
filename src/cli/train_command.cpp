#include "cli/train_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/system_learning.h"
#include "cli/training_printer.h"
#include "config/run_layout.h"
#include "config/system_config.h"
#include "io/folder_lock.h"
#include "model/bhpm_training.h"
#include "model/root_export.h"
#include "util/number_format.h"

namespace bhpm::cli {

namespace {

/// "name v1 v2 ..." of each hyperparameter, comma-separated.
std::string hyperparameter_text(const std::vector<gp::Hyperparameter>& parameters) {
  std::string text;
  for (const gp::Hyperparameter& p : parameters) {
    text += (text.empty() ? "" : ", ") + p.name;
    const at::Tensor values = p.value.reshape({-1});
    for (std::int64_t i = 0; i < values.size(0); ++i)
      text += " " + util::format_significant(values[i].item<double>(), 4);
  }
  return text;
}

/// The learned mean and the kernel's hyperparameters.
void print_root(const gp::SparseVariationalGpImpl& root) {
  std::printf(
      "root mean: %s\nroot kernel (%s): %s; noise sd %s; %lld inducing inputs\n",
      model::describe_root_mean(*root.mean()).c_str(), root.kernel()->name().c_str(),
      hyperparameter_text(root.kernel()->hyperparameters()).c_str(),
      util::format_significant(std::sqrt(root.likelihood()->variance().item<double>()), 4).c_str(),
      static_cast<long long>(root.inducing_points()));
}

/// "resumed from iteration 300 (leaves)": where each phase picked up its checkpoint.
void print_resumption(const model::BhpmTrainingResult& result) {
  const std::pair<const char*, const model::PhaseResult*> phases[] = {
      {"leaves", &result.leaves}, {"exact_gp", &result.exact_gp}, {"joint", &result.joint}};
  for (const auto& [name, phase] : phases)
    if (phase->resumed_from > 0)
      std::printf("resumed from iteration %lld (%s)\n", static_cast<long long>(phase->resumed_from),
                  name);
}

}  // namespace

void setup_train(CLI::App& app) {
  auto options = std::make_shared<TrainingCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "train", "Train leaves and root GP by the paper's three phases (resumes from RUN_DIR)");
  add_training_options(*command, *options);
  command->callback([options] { throw CLI::RuntimeError(run_train(*options)); });
}

int run_train(const TrainingCommandOptions& options) {
  if (config::configures_a_system(options.config_path, options.overrides))
    return run_system_training(options);
  const TrainingInputs inputs = load_training_inputs(options);  // makes the run folder
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm train");
  const model::BhpmTrainingOptions training =
      config::bhpm_training_options(inputs.config, inputs.data.leaves(), options.run_dir);
  const model::BhpmTrainingResult result =
      model::train_bhpm(inputs.data, training, training_printer(options.quiet));
  const config::RunLayout run{options.run_dir};
  const std::string root_file = run.root();
  model::write_root_file(root_file, *result.model, inputs.data, inputs.config.resolved_toml);

  std::printf("trained %lld leaves on %lld points each (K = %d)%s\n",
              static_cast<long long>(inputs.data.leaves()),
              static_cast<long long>(inputs.data.points()), result.model->order(),
              result.skipped_to_joint ? ", resumed in the joint phase" : "");
  print_resumption(result);
  print_leaf_early_stopping(result.leaves_kept_iterations, result.leaves_validation_rmse);
  const at::Tensor sigma = result.model->leaves().noise_scale().detach();
  std::printf("leaf noise sd:");
  for (std::int64_t i = 0; i < sigma.size(0); ++i) std::printf(" %.4g", sigma[i].item<double>());
  std::printf("\n");
  print_root(result.model->root());
  std::printf("model: %s\nroot inputs and GP: %s\n", run.joint_checkpoint().c_str(),
              root_file.c_str());
  return 0;
}

}  // namespace bhpm::cli
