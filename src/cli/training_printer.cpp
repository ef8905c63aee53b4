#include "cli/training_printer.h"

#include <cstdio>
#include <string>

#include "util/number_format.h"

namespace bhpm::cli {

namespace {

std::string duration(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, (total / 60) % 60);
  else
    std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
  return text;
}

}  // namespace

model::TrainingCallback training_printer(bool quiet) {
  if (quiet) return {};
  return [](const model::TrainingProgress& p) {
    std::string line =
        p.phase + "  " + std::to_string(p.iteration) + "/" + std::to_string(p.iterations);
    for (const auto& [name, value] : p.terms)
      line += "  " + name + " " + util::format_significant(value, 5);
    line += "  " + util::format_fixed(p.iterations_per_second, 1) + " it/s  " +
            duration(p.seconds_left) + " left";
    std::fprintf(stderr, "%s\n", line.c_str());
  };
}

void print_leaf_early_stopping(const std::vector<std::int64_t>& kept_iterations,
                               const std::vector<double>& validation_rmse) {
  if (kept_iterations.empty()) return;
  std::printf("leaves kept at iterations");
  for (const std::int64_t iteration : kept_iterations)
    std::printf(" %lld", static_cast<long long>(iteration));
  std::printf("; RMS residual on kept-back points");
  for (const double rmse : validation_rmse) std::printf(" %.4g", rmse);
  std::printf("\n");
}

}  // namespace bhpm::cli
