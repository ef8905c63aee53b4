// Phase 1: leaves fitted alone. A leaf trained on a noise-free Burgers experiment
// reproduces u, u_x and u_xx of the true solution; with noisy data its learned noise
// scale recovers epsilon; checkpoints resume to the same numbers and the same training
// history; bad input is refused.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "io/checkpoint.h"
#include "model/leaf_data.h"
#include "model/leaf_early_stopping.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "model/training_fixture.h"
#include "nn/taylor_forward.h"
#include "pde/dataset_defaults.h"
#include "pde/experiment_set.h"
#include "support/text_file.h"

using namespace bhpm;
using testing::HasSubstr;

using namespace bhpm::testing_fixture;

TEST(LeafTraining, noise_free_burgers_leaf_reproduces_u_and_its_derivatives) {
  const pde::ExperimentSet set = burgers_set(8192, 0.0);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 1, 8192, "burgers");
  model::LeafModel leaves(leaf_options(1));
  model::LeafTrainingOptions options;
  options.iterations = 3000;  // reduced schedule: the paper runs 1e4 full-batch steps
  options.batch_size = 1024;
  options.learning_rate = 2e-3;
  options.final_learning_rate = 1e-4;
  model::train_leaves(*leaves, data, options);

  // Every grid point of the stored solution; truth from spectral derivatives of the grid.
  const pde::PeriodicGrid grid(-8, 8, 256);
  const at::Tensor u = set.u[0];  // [T, n]
  const at::Tensor x = set.x.unsqueeze(0).expand_as(u).reshape({1, -1});
  const at::Tensor t = set.t.unsqueeze(1).expand_as(u).reshape({1, -1});
  at::NoGradGuard no_grad;
  const at::Tensor v = nn::taylor_forward(leaves->network(), x, t, data.boxes, 2).u_x_derivatives;
  const double e0 = relative_l2(v[0][0], u.reshape(-1));
  const double e1 = relative_l2(v[1][0], grid.derivative(u, 1).reshape(-1));
  const double e2 = relative_l2(v[2][0], grid.derivative(u, 2).reshape(-1));
  std::printf("relative L2 errors on the full grid: u %.2e, u_x %.2e, u_xx %.2e\n", e0, e1, e2);
  // Measured: u 4.1e-3, u_x 4.5e-2, u_xx 2.0e-1 (bench/leaf_fit runs the full schedule).
  EXPECT_LT(e0, 1e-2);
  EXPECT_LT(e1, 1e-1);
  EXPECT_LT(e2, 4e-1);
}

TEST(LeafTraining, learned_noise_scale_recovers_epsilon) {
  // The learned sigma^2 is epsilon^2 plus the fit's own residual; under this reduced
  // schedule the residual is ~0.04, so epsilon = 0.1 is recovered (measured 0.101) and
  // epsilon = 0.05 is overestimated by 30%.
  const double epsilon = 0.1;
  const pde::ExperimentSet set = burgers_set(8192, epsilon, 2);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 8192, "noisy burgers");
  model::LeafModel leaves(leaf_options(2));
  model::LeafTrainingOptions options;
  options.iterations = 3000;
  options.batch_size = 1024;
  options.learning_rate = 2e-3;
  options.final_learning_rate = 1e-4;
  model::train_leaves(*leaves, data, options);
  const at::Tensor sigma = leaves->noise_scale();
  std::printf("learned sigma %.4f %.4f for epsilon %.4f\n", sigma[0].item<double>(),
              sigma[1].item<double>(), epsilon);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(sigma[i].item<double>(), epsilon, 0.2 * epsilon);
}

TEST(LeafTraining, ends_with_each_noise_scale_at_the_rms_residual_of_its_leaf) {
  const pde::ExperimentSet set = burgers_set(512, 0.0, 2);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 512, "burgers");
  model::LeafModel leaves(leaf_options(2, 16));
  model::LeafTrainingOptions options;
  options.iterations = 50;
  model::train_leaves(*leaves, data, options);
  const at::Tensor residual =
      data.u - leaves->network().forward(data.x, data.t, data.boxes).detach();
  const at::Tensor rms = residual.square().mean(1).sqrt();
  EXPECT_TRUE(at::allclose(leaves->noise_scale(), rms, 1e-12, 0));
  // Chunked as the training computes it, or whole: the same.
  EXPECT_TRUE(at::allclose(model::profiled_noise_scale(*leaves, data, 100), rms, 1e-12, 0));
  EXPECT_THROW(leaves->set_noise_scale(at::zeros({2}, at::kDouble)), std::invalid_argument);
}

// Parameters and the history file (model/training_history.h) both end as in one run.
TEST(LeafTraining, resumed_run_ends_where_an_uninterrupted_one_does) {
  const pde::ExperimentSet set = burgers_set(512, 0.01, 2);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 512, "burgers");
  model::LeafTrainingOptions options;
  options.iterations = 30;
  options.batch_size = 128;
  options.checkpoint_every = 10;
  options.history_every = 5;
  const std::string straight_history = temp_path("straight.csv");
  const std::string resumed_history = temp_path("interrupted.csv");

  model::LeafModel straight(leaf_options(2, 16));
  options.checkpoint_path = temp_path("straight.ckpt");
  options.history_path = straight_history;
  model::train_leaves(*straight, data, options);

  model::LeafModel first(leaf_options(2, 16));
  options.checkpoint_path = temp_path("interrupted.ckpt");
  options.history_path = resumed_history;
  options.iterations = 20;  // "killed" after 20 iterations
  model::train_leaves(*first, data, options);
  model::LeafModel second(leaf_options(2, 16));  // a fresh process
  options.iterations = 30;
  const auto result = model::train_leaves(*second, data, options);
  EXPECT_EQ(result.resumed_from, 20);
  const auto a = straight->named_parameters(), b = second->named_parameters();
  for (const auto& item : a) EXPECT_TRUE(at::equal(item.value(), b[item.key()])) << item.key();

  const std::string expected = bhpm::testing_support::read_text_file(straight_history);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'), 1 + 6);  // header, 6 rows
  EXPECT_THAT(expected, HasSubstr("iteration,learning_rate,objective,nll,sigma[0],sigma[1]\n"));
  EXPECT_EQ(bhpm::testing_support::read_text_file(resumed_history), expected);
}

TEST(LeafTraining, checkpoint_of_another_architecture_is_refused_by_name) {
  const pde::ExperimentSet set = burgers_set(256, 0.0, 1);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 1, 256, "burgers");
  model::LeafTrainingOptions options;
  options.iterations = 2;
  options.checkpoint_path = temp_path("arch.ckpt");
  model::LeafModel narrow(leaf_options(1, 8));
  model::train_leaves(*narrow, data, options);
  model::LeafModel wide(leaf_options(1, 16));
  options.iterations = 4;
  try {
    model::train_leaves(*wide, data, options);
    FAIL() << "expected a CheckpointError";
  } catch (const io::CheckpointError& error) {
    EXPECT_THAT(error.what(), HasSubstr("leaves.width = 8"));
    EXPECT_THAT(error.what(), HasSubstr("asks for 16"));
  }
}

TEST(LeafTraining, same_seed_same_result) {
  const pde::ExperimentSet set = burgers_set(256, 0.01, 1);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 1, 256, "burgers");
  model::LeafTrainingOptions options;
  options.iterations = 5;
  options.batch_size = 64;
  model::LeafModel a(leaf_options(1, 8)), b(leaf_options(1, 8));
  EXPECT_EQ(model::train_leaves(*a, data, options).final_loss,
            model::train_leaves(*b, data, options).final_loss);
}

TEST(LeafData, bad_measurements_are_refused_with_the_reason) {
  const pde::ExperimentSet set = burgers_set(64, 0.0, 2);
  EXPECT_THROW(model::leaf_data_from_measurements(pde::measured_experiments(set), 3, 64, "data.h5"),
               std::invalid_argument);
  EXPECT_THROW(model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 65, "data.h5"),
               std::invalid_argument);
  model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 2, 64, "data.h5");
  data.u[1][7] = NAN;
  try {
    model::validate(data, "data.h5");
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("NaN or Inf (experiment 1, point 7)"));
  }
  data.u = data.u.slice(1, 0, 10);
  EXPECT_THROW(model::validate(data, "data.h5"), std::invalid_argument);
  data.u = at::empty({2, 0}, at::kDouble);
  EXPECT_THROW(model::validate(data, "data.h5"), std::invalid_argument);
}

TEST(LeafTraining, bad_options_are_refused) {
  const pde::ExperimentSet set = burgers_set(64, 0.0, 1);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 1, 64, "burgers");
  model::LeafModel leaves(leaf_options(1, 8));
  model::LeafTrainingOptions options;
  options.learning_rate = -1;
  EXPECT_THROW(model::train_leaves(*leaves, data, options), std::invalid_argument);
  model::LeafModel two(leaf_options(2, 8));
  EXPECT_THROW(model::train_leaves(*two, data, {}), std::invalid_argument);
  EXPECT_THROW(model::LeafEarlyStopping(*two, data), std::invalid_argument);  // 1 experiment

  options = {};
  options.iterations = 1;
  for (const std::int64_t every : {1, 65}) {  // keeps back every point; more than the 64
    options.validation_every_nth_point = every;
    EXPECT_THROW(model::train_leaves(*leaves, data, options), std::invalid_argument) << every;
  }
  options.validation_every_nth_point = 4;
  options.validation_interval = 0;
  EXPECT_THROW(model::train_leaves(*leaves, data, options), std::invalid_argument);
}
