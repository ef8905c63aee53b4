// Learning-rate schedules (util/learning_rate_schedule.h): constant, and cosine annealing
// that starts and ends at the given rates and passes their mean halfway.

#include <gtest/gtest.h>

#include "util/learning_rate_schedule.h"

using bhpm::util::learning_rate_at;
using bhpm::util::LearningRateSchedule;

TEST(LearningRateSchedule, a_negative_final_rate_keeps_the_rate_constant) {
  const LearningRateSchedule constant{100, 1e-3, -1.0};
  for (const std::int64_t i : {0, 50, 99}) EXPECT_EQ(learning_rate_at(constant, i), 1e-3);
  EXPECT_EQ(learning_rate_at({1, 1e-2, 1e-4}, 0), 1e-2);  // one step: no annealing
}

TEST(LearningRateSchedule, cosine_annealing_runs_from_the_first_to_the_final_rate) {
  const LearningRateSchedule cosine{101, 1e-3, 1e-4};
  EXPECT_DOUBLE_EQ(learning_rate_at(cosine, 0), 1e-3);
  EXPECT_DOUBLE_EQ(learning_rate_at(cosine, 50), 0.5 * (1e-3 + 1e-4));
  EXPECT_DOUBLE_EQ(learning_rate_at(cosine, 100), 1e-4);
  for (std::int64_t i = 1; i <= 100; ++i)
    EXPECT_LT(learning_rate_at(cosine, i), learning_rate_at(cosine, i - 1)) << i;
}
