#pragma once
/// The progress lines of `bhpm simulate` on stderr.

#include <string>

#include "util/stopwatch.h"

namespace bhpm::cli {

/// Prints "simulate train: t = 4.50 / 10 (45%), 1.2 s elapsed": rewritten in place on a
/// terminal (at most four times a second), one line per tenth of the run otherwise.
class SimulationProgress {
 public:
  explicit SimulationProgress(bool quiet);
  /// `set` names what is simulated ("train", "train 2/4").
  void operator()(const std::string& set, double t, double t_end);

 private:
  bool quiet_;
  bool terminal_;
  util::Stopwatch stopwatch_;
  util::Stopwatch since_line_;  ///< since the last line printed
  double next_fraction_ = 0.1;
};

}  // namespace bhpm::cli
