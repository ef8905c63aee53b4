#pragma once
/// The machine's 1-minute load average, which the benchmarks print: on a shared 2-core
/// machine, timings with 2 ATen threads are only meaningful when it is well below 1.

#include <cstdio>

namespace bhpm::bench {

/// The 1-minute load average (Linux /proc/loadavg), or -1 when it cannot be read.
inline double load_average() {
  std::FILE* file = std::fopen("/proc/loadavg", "r");
  double load = -1;
  if (file) {
    if (std::fscanf(file, "%lf", &load) != 1) load = -1;
    std::fclose(file);
  }
  return load;
}

}  // namespace bhpm::bench
