#pragma once
/// What a training loop reports after an iteration: the phase, where it is, each term of
/// its objective, and its speed. The CLI prints it; the library never does.

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "util/stopwatch.h"

namespace bhpm::model {

/// What a progress report shows besides the iteration: (name, value) pairs.
using ProgressTerms = std::vector<std::pair<std::string, double>>;

struct TrainingProgress {
  std::string phase;            ///< "leaves", "exact_gp", "joint"
  std::int64_t iteration = 0;   ///< iterations done so far (1-based after a step)
  std::int64_t iterations = 0;  ///< iterations planned for the phase
  ProgressTerms terms;          ///< objective terms, noise estimates
  double iterations_per_second = 0;
  double seconds_left = 0;
};

using TrainingCallback = std::function<void(const TrainingProgress&)>;

/// Measures the rate of a loop from its first reported iteration.
class RateMeter {
 public:
  explicit RateMeter(std::int64_t first_iteration);
  /// Fills iterations_per_second and seconds_left of `progress`.
  void update(TrainingProgress& progress) const;

 private:
  std::int64_t first_iteration_;
  util::Stopwatch stopwatch_;  ///< since construction
};

}  // namespace bhpm::model
