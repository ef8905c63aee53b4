#include "cli/simulation_progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace bhpm::cli {

SimulationProgress::SimulationProgress(bool quiet)
    : quiet_(quiet), terminal_(isatty(fileno(stderr)) != 0) {}

void SimulationProgress::operator()(const std::string& set, double t, double t_end) {
  if (quiet_) return;
  const bool done = t >= t_end;
  if (terminal_ ? (!done && since_line_.seconds() < 0.25) : (!done && t < next_fraction_ * t_end))
    return;
  since_line_.restart();
  next_fraction_ = done ? 0.1 : std::floor(10.0 * t / t_end + 1.0) / 10.0;
  const double elapsed = stopwatch_.seconds();
  std::fprintf(stderr, "%ssimulate %s: t = %.4g / %.4g (%3.0f%%), %.1f s elapsed%s",
               terminal_ ? "\r" : "", set.c_str(), t, t_end, 100.0 * t / t_end, elapsed,
               done || !terminal_ ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace bhpm::cli
