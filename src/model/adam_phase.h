#pragma once
/// The loop every training phase shares (paper appendix B: each phase is Adam on one
/// objective): resume from the phase's checkpoint, step, anneal the rate, detect a
/// non-finite objective or a failed factorisation, report progress and checkpoint
/// atomically. A phase supplies only its objective, so leaves alone (phase 1), the exact
/// root GP (phase 2) and the joint ELBO (phase 3) differ in nothing else.
///
/// A checkpoint holds the module's named parameters ("param/<name>"), Adam's state, the
/// iteration, the phase name, the architecture strings it must agree on, the phase's
/// history so far (model/training_history.h) and the resolved configuration. A run restarted on the
/// same path resumes and ends with the numbers of an uninterrupted run, provided the objective
/// draws its randomness from the iteration number alone (e.g. derive_seed(seed, name, iteration)).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/training_history.h"
#include "model/training_progress.h"

namespace torch::nn {
class Module;
}

namespace bhpm::io {
struct Checkpoint;
}

namespace bhpm::model {

/// How long and how fast a phase runs, and where it keeps its checkpoint.
struct AdamSchedule {
  std::int64_t iterations = 10000;  ///< total Adam steps (>= 0)
  double learning_rate = 1e-3;      ///< > 0, the rate at the first step
  /// Rate at the last step (> 0), reached by cosine annealing; < 0 keeps the rate constant
  /// (the paper's schedule).
  double final_learning_rate = -1.0;
  std::string checkpoint_path;           ///< "" = no checkpoints
  std::int64_t checkpoint_every = 1000;  ///< steps between checkpoints (>= 1)
  std::int64_t report_every = 100;       ///< steps between progress reports (>= 1)
  /// The phase's curve as CSV (model/training_history.h), rewritten with every checkpoint
  /// and after the last step; "" = kept only in the checkpoint and the result.
  std::string history_path;
  std::int64_t history_every = 10;  ///< steps between history rows (>= 1)
  std::string config;               ///< resolved configuration, stored in checkpoints
};

/// Throws util::OptionError naming `phase`, the field and the rule.
void validate(const AdamSchedule& schedule, const std::string& phase);

/// Cosine annealing from learning_rate (step 0) to final_learning_rate (last step).
double learning_rate_at(const AdamSchedule& schedule, std::int64_t iteration);

/// One evaluation of a phase's objective: the scalar Adam minimises and how to list the
/// terms a progress report shows (the objective's parts, noise estimates, weights), called
/// only on the iterations that report, after the step.
struct PhaseObjective {
  at::Tensor loss;                       ///< [] with a graph to the parameters
  std::function<ProgressTerms()> terms;  ///< may be empty
};

/// A phase: its name, what it trains, and the architecture a checkpoint must match.
struct AdamPhase {
  std::string name;                     ///< "leaves", "exact_gp", "joint"
  torch::nn::Module* module = nullptr;  ///< every named parameter is checkpointed
  /// (configuration field, value) pairs; a checkpoint that disagrees is refused.
  std::vector<std::pair<std::string, std::string>> architecture;
  /// The objective at a given iteration (0-based), drawing any randomness from it.
  std::function<PhaseObjective(std::int64_t iteration)> objective;
  /// Called once after the phase's last step, before its final checkpoint (may be empty):
  /// a closed-form update of parameters that the steps leave short of their optimum.
  std::function<void()> finish;
  /// State of the objective's own that a resumed phase needs (may be empty): written into
  /// every checkpoint and read back from the one a phase resumes (e.g. early stopping's
  /// best parameters, model/leaf_early_stopping.h).
  std::function<void(io::Checkpoint&)> store_state;
  std::function<void(const io::Checkpoint&, const std::string& source)> load_state;
};

struct PhaseResult {
  std::int64_t resumed_from = 0;  ///< iteration read from an existing checkpoint (0: fresh)
  double final_loss = 0;          ///< loss at the last step taken (0 when none was)
  TrainingHistory history;        ///< every row, the resumed checkpoint's included
};

/// Raised when a phase cannot go on: the message names the phase and the iteration, says
/// why (non-finite objective, failed Cholesky, ...) and where the last good checkpoint is.
class TrainingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs `phase` under `schedule`. Throws std::invalid_argument for a bad schedule,
/// io::CheckpointError for a checkpoint of another phase or architecture, and
/// TrainingError when the objective fails (the last good checkpoint is left as it was).
PhaseResult run_adam_phase(const AdamPhase& phase, const AdamSchedule& schedule,
                           const TrainingCallback& progress = {});

}  // namespace bhpm::model
