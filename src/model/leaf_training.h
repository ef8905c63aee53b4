#pragma once
/// Phase 1 of the paper's training protocol (appendix B): each leaf alone minimises its
/// negative log-likelihood (Eq. 2) over its network and its noise scale with Adam.
/// Defaults are the paper's: 1e4 iterations at learning rate 1e-3, no minibatches.
///
/// Checkpoints hold the parameters, Adam's state, the iteration and the architecture;
/// a run restarted on the same checkpoint path resumes where the checkpoint left off and
/// ends with the same numbers as an uninterrupted run, because minibatch k is drawn from
/// derive_seed(seed, "leaf_batch", k) alone.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/adam_phase.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/training_progress.h"

namespace bhpm::model {

/// The schedule (defaults: the paper's 1e4 steps at a constant 1e-3) plus minibatching.
/// Cosine annealing to final_learning_rate ~1e-4 lets Adam settle instead of hovering.
struct LeafTrainingOptions : AdamSchedule {
  std::int64_t batch_size = 0;  ///< points per leaf per step; 0 = all (>= 0)
  std::uint64_t seed = 0;       ///< minibatch draws
  /// Early stopping (model/leaf_early_stopping.h): every n-th measurement of each leaf is
  /// kept back from the fit and each leaf ends at its best RMS residual on them; 0 = off
  /// (every measurement is fitted and the leaves end at the last step).
  std::int64_t validation_every_nth_point = 0;  ///< 0, or 2 <= n <= P
  std::int64_t validation_interval = 100;       ///< steps between scores (>= 1)
};

struct LeafTrainingResult {
  std::int64_t resumed_from = 0;  ///< iteration read from an existing checkpoint (0: fresh)
  double final_loss = 0;          ///< sum over leaves of the per-point NLL at the last step
  /// With early stopping, per leaf: the iteration it ends at and its RMS residual on its
  /// kept-back points there ([L] each; empty without early stopping).
  std::vector<std::int64_t> kept_iterations;
  std::vector<double> validation_rmse;
};

/// The configuration fields a leaves checkpoint must agree on, as (field, value).
std::vector<std::pair<std::string, std::string>> leaf_architecture(const LeafModelImpl& model);

/// Appends ("sigma[i]", sigma_i) for every leaf to a progress report's terms.
void append_noise_scales(const LeafModelImpl& model, ProgressTerms& terms);

/// The maximiser of Eq. 2 in each sigma_i for the leaf's network as it is: the RMS of its
/// residuals over every measurement, sigma_i^2 = mean_j (u_hat_ij - u_i(x_j, t_j))^2
/// (floored at 1e-12 relative to the data's scale, so that an exact fit stays finite);
/// computed in chunks of at most `chunk` points per leaf.
at::Tensor profiled_noise_scale(const LeafModelImpl& model, const LeafData& data,
                                std::int64_t chunk = 65536);

/// Throws util::OptionError naming the field, its value and the rule (the schedule's as
/// validate(AdamSchedule, "leaves")).
void validate(const LeafTrainingOptions& options);

/// Trains `model` on `data` (validated first; with early stopping on all but the kept-back
/// points, and each leaf ends at its best score), then sets each sigma_i to
/// profiled_noise_scale over all of `data` (docs/training.md, "Leaf noise scales": Adam on log
/// sigma lags the network's fit by a factor 10-40, which would weaken the leaves' data term in the
/// joint objective and inflate their Laplace covariance by its square). Throws
/// std::invalid_argument for bad options or data, io::CheckpointError for a checkpoint of another
/// architecture, and TrainingError naming the phase and iteration when the objective is not finite
/// (the last good checkpoint is left as it was).
LeafTrainingResult train_leaves(LeafModelImpl& model, const LeafData& data,
                                const LeafTrainingOptions& options,
                                const TrainingCallback& progress = {});

}  // namespace bhpm::model
