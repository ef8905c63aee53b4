// Phase 1's early stopping (model/leaf_early_stopping.h): each leaf ends at its own best
// score on the measurements kept back from its fit, its parameters exactly those it had
// there; a resumed phase ends where an uninterrupted one does (bad settings:
// leaf_training_test.cpp).

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/leaf_data.h"
#include "model/leaf_early_stopping.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "model/training_fixture.h"

using namespace bhpm;
using namespace bhpm::testing_fixture;

namespace {

/// The parameters of `model` as they are (clones).
std::vector<at::Tensor> parameter_values(const model::LeafModelImpl& model) {
  std::vector<at::Tensor> values;
  for (const at::Tensor& p : model.parameters()) values.push_back(p.detach().clone());
  return values;
}

void set_parameter_values(model::LeafModelImpl& model, const std::vector<at::Tensor>& values) {
  const at::NoGradGuard no_grad;
  const std::vector<at::Tensor> parameters = model.parameters();
  for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(values[i]);
}

/// `values` moved by a fixed pseudo-random step of size `scale`.
std::vector<at::Tensor> moved(const std::vector<at::Tensor>& values, double scale,
                              std::uint64_t seed) {
  at::manual_seed(seed);
  std::vector<at::Tensor> result;
  for (const at::Tensor& v : values) result.push_back(v + scale * at::randn_like(v));
  return result;
}

}  // namespace

// Leaf 0's kept-back values are what the parameters P0 predict, leaf 1's what P1 predict:
// scored at P0 (iteration 0), then P1 (iteration 7), then P2 (iteration 9), leaf 0 must end
// with P0's slice and leaf 1 with P1's, bit for bit.
TEST(LeafEarlyStopping, each_leaf_ends_with_the_parameters_of_its_own_best_score) {
  const model::LeafData data = burgers_leaf_data(256, 0.0, 2);
  model::LeafModel leaves(leaf_options(2, 16));
  const std::vector<at::Tensor> p0 = parameter_values(*leaves), p1 = moved(p0, 0.05, 1),
                                p2 = moved(p0, 0.05, 2);
  const auto predicted = [&](const std::vector<at::Tensor>& values) {
    set_parameter_values(*leaves, values);
    const at::NoGradGuard no_grad;
    return leaves->network().forward(data.x, data.t, data.boxes);
  };
  model::LeafData kept_back = data;
  kept_back.u = at::stack({predicted(p0)[0], predicted(p1)[1]});

  set_parameter_values(*leaves, p0);
  model::LeafEarlyStopping stopping(*leaves, kept_back);
  stopping.score(*leaves, 0);
  EXPECT_EQ(stopping.best_rmse()[0].item<double>(), 0.0);
  EXPECT_GT(stopping.best_rmse()[1].item<double>(), 0.0);
  set_parameter_values(*leaves, p1);
  stopping.score(*leaves, 7);
  set_parameter_values(*leaves, p2);
  stopping.score(*leaves, 9);
  EXPECT_GT(stopping.latest_rmse()[0].item<double>(), 0.0);
  EXPECT_EQ(stopping.best_iterations(), (std::vector<std::int64_t>{0, 7}));

  stopping.restore_best(*leaves);
  const std::vector<at::Tensor> ended = parameter_values(*leaves);
  for (std::size_t i = 0; i < ended.size(); ++i) {
    EXPECT_TRUE(at::equal(ended[i][0], p0[i][0])) << "parameter " << i << ", leaf 0";
    EXPECT_TRUE(at::equal(ended[i][1], p1[i][1])) << "parameter " << i << ", leaf 1";
  }
}

// The leaves train_leaves returns score on their kept-back points exactly what the result
// reports, at the iterations it reports; an interrupted and resumed phase returns the same.
TEST(LeafEarlyStopping, training_returns_the_best_scored_leaves_and_resumes_to_them) {
  const model::LeafData data = burgers_leaf_data(512, 0.05, 2);
  model::LeafTrainingOptions options;
  options.iterations = 60;
  options.learning_rate = 1e-2;
  options.batch_size = 128;
  options.checkpoint_every = 20;
  options.validation_every_nth_point = 4;
  options.validation_interval = 5;

  model::LeafModel straight(leaf_options(2, 16));
  options.checkpoint_path = temp_path("stopping_straight.ckpt");
  const model::LeafTrainingResult result = model::train_leaves(*straight, data, options);
  ASSERT_EQ(result.kept_iterations.size(), 2u);
  const model::LeafData kept_back = model::keep_back_points(data, 4).second;
  const at::Tensor predicted =
      straight->network().forward(kept_back.x, kept_back.t, kept_back.boxes).detach();
  const at::Tensor rmse = (kept_back.u - predicted).square().mean(1).sqrt();
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(rmse[i].item<double>(), result.validation_rmse[i], 1e-12);
    EXPECT_EQ(result.kept_iterations[i] % 5, 0);
    EXPECT_LE(result.kept_iterations[i], 60);
  }

  model::LeafModel first(leaf_options(2, 16));
  options.checkpoint_path = temp_path("stopping_interrupted.ckpt");
  options.iterations = 40;  // "killed" after 40 iterations
  model::train_leaves(*first, data, options);
  model::LeafModel second(leaf_options(2, 16));  // a fresh process
  options.iterations = 60;
  const model::LeafTrainingResult resumed = model::train_leaves(*second, data, options);
  EXPECT_EQ(resumed.resumed_from, 40);
  EXPECT_EQ(resumed.kept_iterations, result.kept_iterations);
  const auto a = straight->named_parameters(), b = second->named_parameters();
  for (const auto& item : a) EXPECT_TRUE(at::equal(item.value(), b[item.key()])) << item.key();

  // A checkpoint made without early stopping is not resumed with it.
  options.validation_every_nth_point = 0;
  options.checkpoint_path = temp_path("stopping_other.ckpt");
  options.iterations = 20;
  model::LeafModel plain(leaf_options(2, 16));
  model::train_leaves(*plain, data, options);
  options.validation_every_nth_point = 4;
  options.iterations = 40;
  model::LeafModel other(leaf_options(2, 16));
  EXPECT_THROW(model::train_leaves(*other, data, options), std::exception);
}
