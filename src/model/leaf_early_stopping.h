#pragma once
/// Early stopping of phase 1, leaf by leaf (docs/distillation.md, "The leaf phase's length"):
/// every n-th measurement of each experiment is kept back from the fit, each leaf's RMS
/// residual on its kept-back points is scored every few steps, and phase 1 returns every
/// leaf as it was at its best score. How long a leaf should train depends on the noise
/// (a leaf that trains on after its fit reaches the noise fits the noise, and its
/// derivatives, which the root sees, fit it most); the kept-back points measure it on
/// the data themselves.
///
/// The best parameters and scores travel in the phase's checkpoint, so a resumed phase
/// returns the same leaves as an uninterrupted one.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/leaf_data.h"
#include "model/leaf_model.h"

namespace bhpm::io {
struct Checkpoint;
}

namespace bhpm::model {

class LeafEarlyStopping {
 public:
  /// `kept_back` [L, Q]: the measurements no step fits. Every parameter of `model` must
  /// have the leaves as its first dimension (throws std::invalid_argument otherwise).
  LeafEarlyStopping(const LeafModelImpl& model, LeafData kept_back);

  /// Scores `model` as it is after `iteration` steps: per leaf, the RMS of
  /// u_hat - u_i(x, t) over its kept-back points; a leaf whose score is below its best
  /// so far has its parameters remembered.
  void score(const LeafModelImpl& model, std::int64_t iteration);

  /// Copies each leaf's remembered parameters into `model` (a leaf never scored keeps
  /// its own).
  void restore_best(LeafModelImpl& model) const;

  const at::Tensor& latest_rmse() const { return latest_rmse_; }  ///< [L]; NaN before a score
  const at::Tensor& best_rmse() const { return best_rmse_; }      ///< [L]; +inf before a score
  /// Per leaf, the iteration of its best score (-1 before a score).
  std::vector<std::int64_t> best_iterations() const;

  /// Stores the state under "early_stopping/..." and reads it back; load throws
  /// io::CheckpointError naming `source` and the key when an entry is missing.
  void store(io::Checkpoint& checkpoint) const;
  void load(const io::Checkpoint& checkpoint, const std::string& source);

 private:
  LeafData kept_back_;
  std::map<std::string, at::Tensor> best_parameters_;    ///< name -> [L, ...]
  at::Tensor best_rmse_, latest_rmse_, best_iteration_;  ///< [L] double, double, long
};

}  // namespace bhpm::model
