#pragma once
/// A system of fields learned from its measurements (docs/systems.md, "Learning a system"):
/// phase 1 fits the leaves (model/system_leaves.h), then one exact GP per field is trained on
/// root rows drawn from the leaves (model/system_roots.h). Stored in a run folder as one
/// checkpoint (config/run_layout.h, system_model()) with the resolved configuration.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config/system_config.h"
#include "gp/exact_gp.h"
#include "model/adam_phase.h"
#include "model/system_leaves.h"
#include "model/system_roots.h"
#include "pde/measured_system.h"
#include "pde/system_experiment_set.h"

namespace bhpm::pipeline {

struct TrainedSystem {
  config::SystemConfig config;  ///< as trained (learning.leaves' network completed)
  model::SystemLeaves leaves{nullptr};
  std::vector<nn::DomainBox> boxes;  ///< [L]: each leaf's box
  std::vector<gp::ExactGp> roots;    ///< [q]: u_i,t = f_i(v)
  model::SystemRootData rows;        ///< what the roots were trained on
  model::PhaseResult leaf_phase;     ///< phase 1's outcome (fresh training only)
  double leaf_seconds = 0.0, root_seconds = 0.0;
};

/// The first `experiments` experiments of `set` (every one for 0) with the first `points`
/// measurements of each (every one for 0) as leaf data, every leaf on the set's box and
/// [t_0, t_end]; throws std::invalid_argument naming `source` when there are fewer.
model::SystemLeafData system_leaf_data(const pde::SystemExperimentSet& set,
                                       const pde::PeriodicBox& box, std::int64_t experiments,
                                       std::int64_t points, const std::string& source);

/// The same from a system's measurements (a version 4 file, `bhpm import`): every leaf on
/// its experiment's window with the first `points` measurements of each (0: as many as the
/// smallest experiment holds, the leaves training on batches of one shape).
model::SystemLeafData measured_system_leaf_data(const pde::MeasuredSystemSet& set,
                                                std::int64_t experiments, std::int64_t points,
                                                const std::string& source);

/// The leaves' data of set `set_name` of the dataset at `path`: a simulated system's
/// (version 3, system_leaf_data) or a system's imported measurements (version 4,
/// measured_system_leaf_data); `experiments` and `points` as there.
model::SystemLeafData read_system_leaf_data(const std::string& path, const std::string& set_name,
                                            std::int64_t experiments, std::int64_t points);

/// Root rows of the leaves at `count` of the measurement points (the same number from each
/// leaf, drawn with `seed`; every point for count >= all): every field's partials of order
/// <= K as inputs v [N, q R] (field by field, pde::FieldSystem::expression_partials' order)
/// and the leaves' u_t [N, q], with the leaf of each row.
model::SystemRootData system_root_rows(const model::SystemLeavesImpl& leaves,
                                       const model::SystemLeafData& data, int order,
                                       std::int64_t count, std::uint64_t seed);

/// Phase 1 alone: leaves of `config`'s network fitted to `data` as its [train_leaves] says,
/// their batches drawn from the seed's stream `batch_stream`; the outcome into `phase`.
model::SystemLeaves fit_system_leaves(const config::SystemConfig& config,
                                      const model::SystemLeafData& data,
                                      const std::string& batch_stream, model::PhaseResult& phase,
                                      const model::TrainingCallback& progress = {});

/// Trains leaves and roots on `data` as `config` says (progress of phase 1 to `progress`).
TrainedSystem train_system(const config::SystemConfig& config, const model::SystemLeafData& data,
                           const model::TrainingCallback& progress = {});

/// Writes the model to `path` atomically.
void save_trained_system(const std::string& path, const TrainedSystem& system);

/// Reads what save_trained_system wrote, the "section.key=value" overrides applied to the
/// stored configuration (settings of later steps, such as [distill]); throws
/// io::CheckpointError naming the file when it is missing, unreadable or not of a system.
TrainedSystem load_trained_system(const std::string& path,
                                  const std::vector<std::string>& overrides = {});

}  // namespace bhpm::pipeline
