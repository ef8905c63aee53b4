#pragma once
/// Wall-clock seconds since a start, for the time lines of commands, progress and
/// benchmarks (steady clock: never goes backwards).

#include <chrono>

namespace bhpm::util {

class Stopwatch {
 public:
  /// Seconds since construction or the last restart().
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  /// Starts counting again from now.
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace bhpm::util
