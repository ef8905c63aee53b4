// A training phase's curve (model/training_history.h): rows in order, the CSV a user reads,
// the round trip through a checkpoint (a resumed phase's file: LeafTraining's resume test).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "io/checkpoint.h"
#include "model/training_history.h"
#include "support/error_message.h"

using namespace bhpm;
using testing::ElementsAre;
using testing::HasSubstr;

TEST(TrainingHistory, writes_a_header_and_one_line_per_row) {
  model::TrainingHistory history;
  history.append(10, 1e-3, -2.5, {{"nll", -2.5}, {"sigma[0]", 0.125}});
  history.append(20, 5e-4, -3.25, {{"nll", -3.25}, {"sigma[0]", 0.0625}});
  EXPECT_THAT(history.columns(),
              ElementsAre("iteration", "learning_rate", "objective", "nll", "sigma[0]"));
  EXPECT_EQ(history.csv(),
            "iteration,learning_rate,objective,nll,sigma[0]\n"
            "10,0.001,-2.5,-2.5,0.125\n"
            "20,0.0005,-3.25,-3.25,0.0625\n");
  history.truncate_after(15);
  EXPECT_EQ(history.rows().size(), 1u);
  EXPECT_THAT(testing_support::error_message<std::invalid_argument>([&] {
                history.append(30, 1e-4, 0.0, {{"kl", 1.0}});
              }),
              HasSubstr("iteration 30 reports the terms iteration,learning_rate,objective,kl"));
}

TEST(TrainingHistory, round_trips_through_a_checkpoint_and_is_empty_in_an_old_one) {
  model::TrainingHistory history;
  history.append(100, 1e-3, 0.5, {{"loss", 0.5}, {"kl", 12.0}});
  history.append(200, 1e-3, 0.25, {{"loss", 0.25}, {"kl", 11.0}});
  io::Checkpoint checkpoint;
  history.store(checkpoint);
  const model::TrainingHistory back = model::TrainingHistory::restore(checkpoint, "joint.ckpt");
  EXPECT_EQ(back.columns(), history.columns());
  EXPECT_EQ(back.rows(), history.rows());
  EXPECT_TRUE(model::TrainingHistory::restore(io::Checkpoint{}, "old.ckpt").rows().empty());
}
