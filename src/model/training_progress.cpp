#include "model/training_progress.h"

namespace bhpm::model {

RateMeter::RateMeter(std::int64_t first_iteration) : first_iteration_(first_iteration) {}

void RateMeter::update(TrainingProgress& progress) const {
  const double elapsed = stopwatch_.seconds();
  const auto done = static_cast<double>(progress.iteration - first_iteration_);
  progress.iterations_per_second = elapsed > 0 ? done / elapsed : 0.0;
  progress.seconds_left = progress.iterations_per_second > 0
                              ? static_cast<double>(progress.iterations - progress.iteration) /
                                    progress.iterations_per_second
                              : 0.0;
}

}  // namespace bhpm::model
