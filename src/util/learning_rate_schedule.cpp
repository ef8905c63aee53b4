#include "util/learning_rate_schedule.h"

#include <cmath>

namespace bhpm::util {

double learning_rate_at(const LearningRateSchedule& s, std::int64_t iteration) {
  if (s.final < 0 || s.iterations <= 1) return s.initial;
  const double progress = static_cast<double>(iteration) / static_cast<double>(s.iterations - 1);
  return s.final + 0.5 * (s.initial - s.final) * (1.0 + std::cos(M_PI * progress));
}

}  // namespace bhpm::util
