#pragma once
/// A trained run folder as the leaf benchmarks need it: the training set of its dataset,
/// the leaves' data and the trained model, loaded from the run's checkpoints with the
/// configuration stored in them (nothing is trained when they are complete).

#include <cstdint>
#include <string>

#include "config/run_config.h"
#include "model/bhpm_training.h"
#include "model/leaf_data.h"
#include "pde/dataset_file.h"
#include "pde/measured_experiment.h"
#include "pipeline/run_folder.h"

namespace bhpm::bench {

struct TrainedRun {
  pde::ExperimentSet set;  ///< the dataset's "train" set
  model::LeafData data;    ///< every experiment's measurements, as the leaves were fitted
  model::BhpmTrainingResult trained;
};

/// The run in `run_dir` with the training set of `data_path` (a format version 1 dataset).
inline TrainedRun load_trained_run(const std::string& run_dir, const std::string& data_path) {
  const config::RunConfig run_config = pipeline::load_trained_run(run_dir, {}).config;
  TrainedRun run;
  run.set = pde::read_experiment_set(data_path, "train");
  const std::int64_t leaves = run.set.sample_u.size(0), points = run.set.sample_u.size(1);
  run.data = model::leaf_data_from_measurements(pde::measured_experiments(run.set), leaves, points,
                                                data_path);
  run.trained =
      model::train_bhpm(run.data, config::bhpm_training_options(run_config, leaves, run_dir));
  return run;
}

}  // namespace bhpm::bench
