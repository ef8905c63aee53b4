// Phases 2 and 3 and the three-phase protocol: the root's data layout, its least-squares
// start, the joint objective (an unbiased minibatch estimate, gradients against finite
// differences), resume to identical numbers, failures named by phase and iteration with
// the last good checkpoint kept, and the exported root file.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/autograd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "gp/finite_difference.h"
#include "gp/linear_mean.h"
#include "io/checkpoint.h"
#include "io/hdf5_file.h"
#include "model/bhpm_training.h"
#include "model/left_out_residuals.h"
#include "model/root_data.h"
#include "model/root_export.h"
#include "model/root_gp.h"
#include "model/training_fixture.h"

using namespace bhpm;
using namespace bhpm::testing_fixture;
using testing::HasSubstr;

namespace {

at::Tensor all_parameters(const torch::nn::Module& module) {
  std::vector<at::Tensor> flat;
  for (const auto& p : module.parameters()) flat.push_back(p.detach().reshape(-1));
  return at::cat(flat);
}

}  // namespace

TEST(RootData, rows_are_points_of_leaves_in_order_with_derivatives_as_columns) {
  nn::LeafDerivatives pass;
  pass.u_x_derivatives = at::arange(3 * 2 * 4, at::kDouble).reshape({3, 2, 4});  // [K+1, L, P]
  pass.u_t = at::arange(8, at::kDouble).reshape({2, 4}) + 100;
  const model::RootData root = model::root_data(pass);
  ASSERT_EQ(root.inputs.sizes(), (std::vector<int64_t>{8, 3}));
  for (int leaf = 0; leaf < 2; ++leaf)
    for (int point = 0; point < 4; ++point)
      for (int m = 0; m < 3; ++m)
        EXPECT_EQ(root.inputs[leaf * 4 + point][m].item<double>(),
                  pass.u_x_derivatives[m][leaf][point].item<double>());
  EXPECT_TRUE(at::equal(root.targets, pass.u_t.reshape(-1)));
}

TEST(RootGp, exact_root_starts_from_the_least_squares_line) {
  at::manual_seed(1);
  const at::Tensor x = at::randn({200, 3}, at::kDouble);
  const at::Tensor w = at::tensor({0.5, -1.0, 0.1}, at::kDouble);
  const model::RootData data{x, x.mv(w) + 0.25 + 0.01 * at::sin(7 * x.select(1, 0))};
  const gp::ExactGp exact = model::make_exact_root(data);
  const auto& mean = dynamic_cast<const gp::LinearMeanImpl&>(*exact->mean());
  EXPECT_LT((mean.weight() - w).abs().max().item<double>(), 2e-3);
  EXPECT_NEAR(mean.bias().item<double>(), 0.25, 2e-3);
  // Signal variance: the residual's, about 0.01^2 / 2.
  EXPECT_NEAR(exact->likelihood()->variance().item<double>() * 100, 5e-5, 3e-5);
}

TEST(RootGp, options_name_an_unknown_input_noise) {
  model::RootOptions options;
  options.input_noise = "ensemble";
  try {
    model::validate(options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("input_noise"));
    EXPECT_THAT(e.what(), HasSubstr("laplace"));
  }
}

TEST(JointObjective, minibatches_of_a_partition_average_to_the_full_objective) {
  const model::LeafData& data = small_training_data();
  model::BhpmTrainingOptions o = small_training_options("");
  o.leaf_training.iterations = o.exact_training.iterations = o.joint_training.iterations = 0;
  const model::BhpmModel bhpm = model::train_bhpm(data, o).model;
  at::NoGradGuard no_grad;
  const double full = bhpm->objective(data, data.points()).loss.item<double>();
  // Four disjoint batches of 64 per leaf cover every point once.
  at::manual_seed(2);
  const at::Tensor order = at::stack({at::randperm(256, at::kLong), at::randperm(256, at::kLong)});
  double average = 0;
  for (int part = 0; part < 4; ++part) {
    const model::LeafData batch =
        model::select_points(data, order.slice(1, 64 * part, 64 * (part + 1)));
    average += bhpm->objective(batch, data.points()).loss.item<double>() / 4;
  }
  EXPECT_NEAR(average, full, 1e-10 * std::abs(full));
}

TEST(JointObjective, gradients_match_finite_differences) {
  model::BhpmTrainingOptions o = small_training_options("");
  o.leaf_training.iterations = o.exact_training.iterations = o.joint_training.iterations = 0;
  const model::LeafData data = model::select_points(
      small_training_data(), at::arange(32, at::kLong).expand({2, 32}).contiguous());
  model::BhpmModel bhpm = model::train_bhpm(data, o).model;
  gp::test::expect_gradients_match(
      *bhpm, [&] { return bhpm->objective(data, 256).loss; }, 1e-6, 2e-5, 3);
}

namespace {

/// Trains small_options with root.input_noise = `input_noise` uninterrupted and then
/// interrupted in phase 2 and in phase 3; expects identical parameters and returns them.
at::Tensor expect_resume_matches(const std::string& input_noise, const std::string& name) {
  const model::LeafData& data = small_training_data();
  model::BhpmTrainingOptions full = small_training_options(temp_path(name + "_full"));
  full.root.input_noise = input_noise;
  std::filesystem::create_directories(
      std::filesystem::path(full.joint_training.checkpoint_path).parent_path());
  const at::Tensor uninterrupted = all_parameters(*model::train_bhpm(data, full).model);

  model::BhpmTrainingOptions part = small_training_options(temp_path(name + "_parts"));
  part.root.input_noise = input_noise;
  std::filesystem::create_directories(
      std::filesystem::path(part.joint_training.checkpoint_path).parent_path());
  part.exact_training.iterations = 5;
  part.joint_training.iterations = 0;
  model::train_bhpm(data, part);
  part.exact_training.iterations = 10;
  part.joint_training.iterations = 8;
  part.joint_training.optimal_root_posterior = false;  // stopped at 8, as a killed run is
  model::train_bhpm(data, part);
  part.joint_training.iterations = 12;
  part.joint_training.optimal_root_posterior = true;
  const model::BhpmTrainingResult resumed = model::train_bhpm(data, part);
  EXPECT_TRUE(resumed.skipped_to_joint);
  EXPECT_EQ(resumed.joint.resumed_from, 8);
  EXPECT_TRUE(at::equal(all_parameters(*resumed.model), uninterrupted)) << input_noise;
  return uninterrupted;
}

}  // namespace

TEST(BhpmTraining, resumed_run_ends_where_an_uninterrupted_one_does) {
  const at::Tensor plain = expect_resume_matches("none", "bhpm");
  // The leaves' noisy-input term is a function of each minibatch alone, so a resumed run
  // repeats every step with it too; and it changes the training.
  const at::Tensor with_input_noise = expect_resume_matches("laplace", "bhpm_laplace");
  EXPECT_GT((plain - with_input_noise).abs().max().item<double>(), 1e-8);
}

// Phase 3 ends with q(u) at the maximiser of the ELBO over all root rows: the full-data
// objective's gradient in q's parameters vanishes there (it does not after the Adam steps).
TEST(BhpmTraining, phase_3_ends_with_q_at_the_elbo_maximiser_over_all_rows) {
  const model::LeafData& data = small_training_data();
  auto q_gradient = [&](bool optimal) {
    model::BhpmTrainingOptions o =
        small_training_options(temp_path(optimal ? "bhpm_q_optimal" : "bhpm_q_adam"));
    std::filesystem::create_directories(
        std::filesystem::path(o.joint_training.checkpoint_path).parent_path());
    o.joint_training.optimal_root_posterior = optimal;
    model::BhpmModel bhpm = model::train_bhpm(data, o).model;
    const at::Tensor loss = bhpm->objective(data, data.points()).loss;
    auto parameters = bhpm->root().named_parameters();
    const auto gradients = torch::autograd::grad(
        {loss}, {parameters["variational_mean"], parameters["variational_cholesky_raw"]});
    return std::max(gradients[0].abs().max().item<double>(),
                    gradients[1].tril().abs().max().item<double>());
  };
  EXPECT_LT(q_gradient(true), 1e-9);
  EXPECT_GT(q_gradient(false), 1e-6);
}

TEST(BhpmTraining, posterior_without_some_leaves_maximises_the_elbo_of_the_others_rows) {
  const model::LeafData& data = small_training_data();
  const model::BhpmTrainingOptions o = small_training_options("");
  model::BhpmModel bhpm = model::train_bhpm(data, o).model;
  bhpm->set_optimal_root_posterior(data, {0});
  const model::RootData rows = model::root_data_detached(bhpm->leaves(), data, o.root.order);
  // Gradient in (m, R) of the root's ELBO per row on `count` rows from row `first`.
  auto q_gradient = [&](std::int64_t first, std::int64_t count) {
    const at::Tensor x = rows.inputs.narrow(0, first, count);
    const at::Tensor y = rows.targets.narrow(0, first, count);
    const at::Tensor elbo = bhpm->root().elbo(x, y, count) / static_cast<double>(count);
    auto parameters = bhpm->root().named_parameters();
    const auto gradients = torch::autograd::grad(
        {elbo}, {parameters["variational_mean"], parameters["variational_cholesky_raw"]});
    return std::max(gradients[0].abs().max().item<double>(),
                    gradients[1].tril().abs().max().item<double>());
  };
  EXPECT_LT(q_gradient(data.points(), data.points()), 1e-9);  // leaf 1's rows alone
  EXPECT_GT(q_gradient(0, 2 * data.points()), 1e-6);          // all rows: not their optimum
  bhpm->set_optimal_root_posterior(data, {1});
  EXPECT_LT(q_gradient(0, data.points()), 1e-9);  // leaf 0's rows alone
  EXPECT_THROW(bhpm->set_optimal_root_posterior(data, {2}), std::invalid_argument);
  EXPECT_THROW(bhpm->set_optimal_root_posterior(data, {-1}), std::invalid_argument);
  EXPECT_THROW(bhpm->set_optimal_root_posterior(data, {1, 0}), std::invalid_argument);  // no rows
}

TEST(LeftOutResiduals, score_each_leaf_s_rows_by_the_posterior_without_them) {
  const model::LeafData& data = small_training_data();
  const model::BhpmTrainingOptions o = small_training_options("");
  model::BhpmModel bhpm = model::train_bhpm(data, o).model;
  const at::Tensor trained_mean = bhpm->root().variational_mean().clone();
  gp::PathwiseOptions pathwise;
  pathwise.features = 2048;
  pathwise.seed = 3;
  const std::int64_t samples = 400;
  const std::vector<gp::PosteriorResiduals> scored =
      model::left_out_residuals(*bhpm, data, samples, pathwise);
  ASSERT_EQ(scored.size(), 2u);
  EXPECT_TRUE(at::equal(bhpm->root().variational_mean(), trained_mean));  // q(u) restored
  const model::RootData rows = model::root_data_detached(bhpm->leaves(), data, o.root.order);
  const std::int64_t p = data.points();
  const at::Tensor trained = bhpm->root().marginals(rows.inputs).mean;
  for (std::int64_t e = 0; e < 2; ++e) {  // in-sample: the trained posterior, all rows seen
    const at::Tensor expected = rows.targets.narrow(0, e * p, p) - trained.narrow(0, e * p, p);
    EXPECT_LT((scored[static_cast<std::size_t>(e)].in_sample - expected).abs().max().item<double>(),
              1e-10)
        << "leaf " << e;
  }
  for (std::int64_t e = 0; e < 2; ++e) {
    bhpm->set_optimal_root_posterior(data, {e});
    const gp::MarginalNormal posterior = bhpm->root().marginals(rows.inputs.narrow(0, e * p, p));
    const gp::PosteriorResiduals& leaf = scored[static_cast<std::size_t>(e)];
    EXPECT_LT((leaf.residual - (rows.targets.narrow(0, e * p, p) - posterior.mean))
                  .abs()
                  .max()
                  .item<double>(),
              1e-10)
        << "leaf " << e;
    ASSERT_EQ(leaf.deviations.sizes(), (std::vector<std::int64_t>{samples, p}));
    EXPECT_TRUE(at::equal(leaf.x, data.x[e]) && at::equal(leaf.t, data.t[e]));
    EXPECT_EQ(leaf.x_min, data.boxes[static_cast<std::size_t>(e)].x_min);
    // 400 pathwise draws about the posterior mean: their variance is the posterior's to
    // Monte Carlo error (about 7 % per row, averaged over the rows) and the feature error.
    const double ratio =
        (leaf.deviations.square().mean(0).mean() / posterior.variance.mean()).item<double>();
    EXPECT_NEAR(ratio, 1.0, 0.15) << "leaf " << e;
  }
  const model::LeafData one_leaf{
      data.x.narrow(0, 0, 1), data.t.narrow(0, 0, 1), data.u.narrow(0, 0, 1), {data.boxes[0]}};
  EXPECT_THROW(model::left_out_residuals(*bhpm, one_leaf, samples, pathwise),
               std::invalid_argument);
}

TEST(BhpmTraining, failure_names_phase_and_iteration_and_keeps_the_last_checkpoint) {
  model::BhpmTrainingOptions o = small_training_options(temp_path("bhpm_blowup"));
  std::filesystem::create_directories(
      std::filesystem::path(o.joint_training.checkpoint_path).parent_path());
  o.joint_training.learning_rate = 1e6;  // the first steps throw every parameter far away
  o.joint_training.checkpoint_every = 1;
  try {
    model::train_bhpm(small_training_data(), o);
    FAIL() << "training with learning rate 1e6 did not fail";
  } catch (const model::TrainingError& error) {
    EXPECT_THAT(error.what(), HasSubstr("phase joint, iteration "));
    EXPECT_THAT(error.what(), HasSubstr("last good checkpoint is kept at"));
    const std::string path = o.joint_training.checkpoint_path;
    const io::Checkpoint kept = io::load_checkpoint(path);
    const std::int64_t saved = kept.integer("iteration", path);
    EXPECT_THAT(error.what(), HasSubstr("iteration " + std::to_string(saved + 1)));
    for (const auto& [name, tensor] : kept.tensors) {
      if (!tensor.is_floating_point()) continue;
      EXPECT_TRUE(at::isfinite(tensor).all().item<bool>()) << name;
    }
  }
}

TEST(BhpmTraining, checkpoint_of_another_root_is_refused_by_name) {
  model::BhpmTrainingOptions o = small_training_options(temp_path("bhpm_arch"));
  std::filesystem::create_directories(
      std::filesystem::path(o.joint_training.checkpoint_path).parent_path());
  o.joint_training.iterations = 2;
  model::train_bhpm(small_training_data(), o);
  o.root.order = 3;
  try {
    model::train_bhpm(small_training_data(), o);
    FAIL() << "a K = 2 checkpoint was accepted for K = 3";
  } catch (const io::CheckpointError& error) {
    EXPECT_THAT(error.what(), HasSubstr("root.order = 2, the configuration asks for 3"));
  }
}

TEST(RootExport, file_holds_root_inputs_and_gp_with_their_shapes) {
  model::BhpmTrainingOptions o = small_training_options("");
  o.joint_training.iterations = 2;
  const model::BhpmModel bhpm = model::train_bhpm(small_training_data(), o).model;
  const std::string path = temp_path("root.h5");
  model::write_root_file(path, *bhpm, small_training_data(), "seed = 11\n");
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  EXPECT_EQ(file.string_attribute("variables"), "u,u_x,u_xx");
  const auto v = file.open_group("root_inputs").read_doubles("v");
  EXPECT_EQ(v.shape, (std::vector<std::size_t>{2, 256, 3}));
  const auto z = file.open_group("gp").read_doubles("inducing_inputs");
  EXPECT_EQ(z.shape, (std::vector<std::size_t>{16, 3}));
  const auto q = file.open_group("gp").read_doubles("q_covariance");
  EXPECT_EQ(q.shape, (std::vector<std::size_t>{16, 16}));
  // The stored root inputs are the leaves' values at the measurement points.
  const model::RootData root = model::root_data_detached(bhpm->leaves(), small_training_data(), 2);
  EXPECT_NEAR(v.values[3 * 7 + 1], root.inputs[7][1].item<double>(), 1e-14);
  const auto bias_weight = file.open_group("gp").read_doubles("mean_weight");
  EXPECT_EQ(bias_weight.shape, (std::vector<std::size_t>{3}));
}
