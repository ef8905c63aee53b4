#pragma once
/// A training phase's curve: the objective and its reported terms (paper appendix B: the
/// leaves' negative log likelihood, the exact GP's negative log marginal likelihood, the
/// joint ELBO's parts, noise scales and kernel hyperparameters) every few iterations.
/// It travels in the phase's checkpoint, so a resumed phase continues it, and is written
/// beside the checkpoint as CSV (history-<phase>.csv in a run folder, docs/run-folder.md):
///
///   iteration,learning_rate,objective,<term>,<term>,...
///   10,0.001,-2.31,...
///
/// The columns after `objective` are the phase's progress terms (model/training_progress.h);
/// they are the same for every row of a phase.

#include <cstdint>
#include <string>
#include <vector>

#include "model/training_progress.h"

namespace bhpm::io {
struct Checkpoint;
}

namespace bhpm::model {

class TrainingHistory {
 public:
  /// Appends one row; throws std::invalid_argument when `terms` name other columns than
  /// the rows before (a phase reports the same terms at every iteration).
  void append(std::int64_t iteration, double learning_rate, double objective,
              const ProgressTerms& terms);
  /// Drops the rows after `iteration` (a checkpoint resumed from there).
  void truncate_after(std::int64_t iteration);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::vector<double>>& rows() const { return rows_; }

  /// The CSV text above (header line, one line per row, 10 significant digits).
  std::string csv() const;

  /// Stores the history in `checkpoint` ("history" [rows, columns] double tensor and
  /// "history_columns", comma-separated) and reads it back; a checkpoint without one
  /// (written before histories existed) gives an empty history.
  void store(io::Checkpoint& checkpoint) const;
  static TrainingHistory restore(const io::Checkpoint& checkpoint, const std::string& source);

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<double>> rows_;
};

}  // namespace bhpm::model
