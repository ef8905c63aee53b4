#include "model/training_progress.h"

#include <chrono>

namespace bhpm::model {

namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

RateMeter::RateMeter(std::int64_t first_iteration)
    : first_iteration_(first_iteration), start_seconds_(now_seconds()) {}

void RateMeter::update(TrainingProgress& progress) const {
  const double elapsed = now_seconds() - start_seconds_;
  const auto done = static_cast<double>(progress.iteration - first_iteration_);
  progress.iterations_per_second = elapsed > 0 ? done / elapsed : 0.0;
  progress.seconds_left = progress.iterations_per_second > 0
                              ? static_cast<double>(progress.iterations - progress.iteration) /
                                    progress.iterations_per_second
                              : 0.0;
}

}  // namespace bhpm::model
