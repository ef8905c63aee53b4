// run_system_evaluation (cli/system_learning.h): a system's roots scored on a set's solution
// grids, or without a truth on new leaves of its measurements.
#include <cstdio>
#include <stdexcept>

#include "cli/process_setup.h"
#include "cli/system_learning.h"
#include "cli/training_printer.h"
#include "config/run_layout.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pipeline/system_leaf_targets.h"
#include "pipeline/system_scoring.h"
#include "pipeline/trained_system.h"

namespace bhpm::cli {

namespace {

/// The set's solution grids' truth at up to --max-points points.
pipeline::SystemOperatorTruth grid_truth_rows(const EvaluateOptions& options,
                                              const pipeline::TrainedSystem& trained) {
  pde::SystemDataset dataset = pde::read_system_dataset(options.data_path, options.set_name);
  if (options.experiments > dataset.set.experiments)
    throw std::invalid_argument("--experiments: " + options.data_path + ":/" + options.set_name +
                                " holds " + std::to_string(dataset.set.experiments) +
                                " experiments");
  if (options.experiments > 0) dataset.set.experiments = options.experiments;
  return pipeline::system_operator_truth(trained.config.system, dataset.box, dataset.set,
                                         trained.config.learning.order, options.max_points,
                                         trained.config.sets.seed);
}

/// New leaves' rows on the set's measurements (pipeline/system_leaf_targets.h).
pipeline::SystemLeafTargets measurement_leaf_rows(const EvaluateOptions& options,
                                                  const pipeline::TrainedSystem& trained) {
  const model::SystemLeafData data =
      pipeline::read_system_leaf_data(options.data_path, options.set_name, options.experiments, 0);
  return pipeline::system_leaf_targets(trained, data, options.max_points,
                                       training_printer(options.quiet));
}

}  // namespace

int run_system_evaluation(const EvaluateOptions& options) {
  if (!options.overrides.empty())
    throw std::invalid_argument(
        "bhpm evaluate: --set is not available for a field system's run (docs/systems.md): "
        "its settings were fixed when it was trained");
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.held_out_metrics()
                                 : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm evaluate");
  io::require_output_folder(output);
  const pipeline::TrainedSystem trained =
      pipeline::load_trained_system(config::RunLayout{options.run_dir}.system_model());
  const pde::SystemDatasetMetadata metadata = pde::read_system_dataset_metadata(options.data_path);
  require_same_system(metadata, options.data_path, trained.config.system,
                      options.run_dir + " (its model)");
  const bool truth_free = options.truth_free || metadata.measured_only();
  use_threads(0);
  const pipeline::SystemLeafTargets targets =
      truth_free ? measurement_leaf_rows(options, trained)
                 : pipeline::SystemLeafTargets{grid_truth_rows(options, trained), {}};
  const auto scores = pipeline::score_system_roots(trained, targets.rows, options.function_only);
  const std::string target = truth_free ? "new leaves' u_t at 4 of every 5 measurements (no truth)"
                                        : "the system's operator on the set's solution grids";
  io::write_text_atomically(
      output,
      pipeline::system_metrics_json(scores,
                                    {{"run_dir", options.run_dir},
                                     {"data", options.data_path},
                                     {"set", options.set_name},
                                     {"system", trained.config.system.describe()},
                                     {"target", target},
                                     {"predictive", options.function_only ? "f" : "f + sigma_f^2"}},
                                    targets.kept_back));
  std::printf("scored: %s (%s set) against %s: %s\n%s", options.data_path.c_str(),
              options.set_name.c_str(), target.c_str(), trained.config.system.describe().c_str(),
              eval::metrics_comparison_table(scores).c_str());
  if (!targets.kept_back.empty())
    std::printf("the new leaves on the measurements kept back from their fit:\n%s",
                eval::metrics_comparison_table(targets.kept_back).c_str());
  std::printf("metrics: %s\n", output.c_str());
  return 0;
}

}  // namespace bhpm::cli
