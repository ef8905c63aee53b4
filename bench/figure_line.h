#pragma once
/// The machine-readable line a benchmark prints, beside its own output, for each headline
/// figure; bench/benchmark_table.py collects these lines from the logs of `bash bench/all.sh`
/// into the table of docs/benchmarks.md:
///   figure: <name> | <value> <unit> | accuracy: <what was reached, or -> | <note>
/// A time is printed with the accuracy it was reached at (a solve's error against an exact
/// or reference solution, the objective of a training step), so that times are compared at
/// equal accuracy. No field may contain " | ".

#include <cstdarg>
#include <cstdio>
#include <string>

namespace bhpm::bench {

/// printf's formatting into a string (at most 511 characters).
__attribute__((format(printf, 1, 2))) inline std::string formatted(const char* format, ...) {
  char text[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(text, sizeof text, format, arguments);
  va_end(arguments);
  return text;
}

/// "1 thread", "2 threads": for names and notes.
inline std::string threads(int count) {
  return std::to_string(count) + (count == 1 ? " thread" : " threads");
}

/// Prints the figure line of `name`: `value` in `unit`, reached at `accuracy` ("" for none,
/// printed as "-"), and a short `note` (what was measured, repetitions, threads).
inline void print_figure(const std::string& name, double value, const std::string& unit,
                         const std::string& accuracy, const std::string& note) {
  std::printf("figure: %s | %.4g %s | accuracy: %s | %s\n", name.c_str(), value, unit.c_str(),
              accuracy.empty() ? "-" : accuracy.c_str(), note.c_str());
  std::fflush(stdout);
}

}  // namespace bhpm::bench
