// A training phase's curve (model/training_history.h): rows in order, the CSV a user reads,
// the round trip through a checkpoint, and a resumed phase whose history equals an
// uninterrupted one's (written beside the checkpoint).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/checkpoint.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "model/training_fixture.h"
#include "model/training_history.h"
#include "pde/measured_experiment.h"
#include "support/error_message.h"

using namespace bhpm;
using namespace bhpm::testing_fixture;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

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

TEST(TrainingHistory, a_resumed_phase_writes_the_history_of_an_uninterrupted_one) {
  const pde::ExperimentSet set = burgers_set(256, 0.01, 2);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 256, "burgers");
  model::LeafTrainingOptions options;
  options.iterations = 30;
  options.batch_size = 64;
  options.checkpoint_every = 10;
  options.history_every = 5;

  const std::string straight_history = temp_path("history-straight.csv");
  const std::string resumed_history = temp_path("history-interrupted.csv");
  model::LeafModel straight(leaf_options(2, 8));
  options.checkpoint_path = temp_path("history-straight.ckpt");
  options.history_path = straight_history;
  model::train_leaves(*straight, data, options);

  options.checkpoint_path = temp_path("history-interrupted.ckpt");
  options.history_path = resumed_history;
  options.iterations = 20;  // "killed" after 20 iterations
  model::LeafModel first(leaf_options(2, 8));
  model::train_leaves(*first, data, options);
  options.iterations = 30;
  model::LeafModel second(leaf_options(2, 8));  // a fresh process
  model::train_leaves(*second, data, options);

  const std::string expected = read_text(straight_history);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'), 1 + 6);  // header, 6 rows
  EXPECT_THAT(expected, HasSubstr("iteration,learning_rate,objective,nll,sigma[0],sigma[1]\n"));
  EXPECT_EQ(read_text(resumed_history), expected);
}
