// The device setting and the CUDA code path. The setting's text is checked everywhere; a
// GPU that cannot be used is a clear error. Where a CUDA device exists, the three training
// phases, evaluate's held-out leaves and root predictive, and both samplers' predictions on
// it must give the CPU's numbers to rounding (the same seeds, float64 on both; random
// numbers are drawn on the CPU). Without one, those tests skip and say why.

#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "eval/root_predictive.h"
#include "model/bhpm_training.h"
#include "model/held_out_leaves.h"
#include "model/training_fixture.h"
#include "pde/initial_condition.h"
#include "solve/burgers_operator.h"
#include "solve/predictor.h"
#include "support/error_message.h"
#include "util/device.h"

using namespace bhpm;
using testing::HasSubstr;

namespace {

const at::Device kCpu(at::kCPU);
const at::Device kGpu(at::kCUDA, 0);

#define SKIP_WITHOUT_CUDA()                                                                   \
  if (!at::hasCUDA())                                                                         \
  GTEST_SKIP() << "no CUDA device: this LibTorch has no CUDA or no GPU is visible (the CUDA " \
                  "build and its tests: docs/parallel.md, \"CUDA\")"

/// Largest |a - b| over the tensors' entries, both brought to the CPU.
double largest_difference(const at::Tensor& a, const at::Tensor& b) {
  return (a.cpu() - b.cpu()).abs().max().item<double>();
}

/// Every parameter of `module`, flattened, on the CPU.
at::Tensor flat_parameters(const torch::nn::Module& module) {
  std::vector<at::Tensor> flat;
  for (const auto& p : module.parameters()) flat.push_back(p.detach().cpu().reshape(-1));
  return at::cat(flat);
}

/// Five members of `sampler` with a model discrepancy under a root of kernel variance 1e-4,
/// Burgers to t = 2 on `device`.
solve::Prediction predict_on(at::Device device, const std::string& sampler) {
  gp::SparseVariationalGp root = testing_operator::burgers_root(1e-4);
  root->to(device);
  const pde::PeriodicGrid grid(-8.0, 8.0, 128, device);
  solve::PredictionProblem problem{grid,
                                   pde::initial_condition_from_expression(
                                       grid.on(kCpu), "-sin(pi*x/8) + 0.3*cos(3*pi*x/8)", "u0"),
                                   {},
                                   nullptr};
  problem.solve.t_end = 2.0;
  problem.solve.output_dt = 0.5;
  problem.solve.stepper.dt = 5e-3;
  return solve::predict_ensemble(*root, problem, testing_operator::five_member_options(sampler));
}

}  // namespace

TEST(DeviceSetting, reads_cpu_cuda_and_a_numbered_gpu) {
  EXPECT_EQ(util::parse_device("cpu", "compute.device"), kCpu);
  EXPECT_EQ(util::parse_device("cuda", "compute.device"), kGpu);
  EXPECT_EQ(util::parse_device("cuda:1", "compute.device"), at::Device(at::kCUDA, 1));
  EXPECT_EQ(util::parse_device("cuda", "compute.device").str(), "cuda:0") << "as messages name it";
  for (const std::string bad : {"gpu", "CUDA", "cuda:", "cuda:x", "cuda:-1", ""})
    EXPECT_THAT(testing_support::error_message([&] { util::parse_device(bad, "compute.device"); }),
                HasSubstr("compute.device: must be \"cpu\", \"cuda\" or \"cuda:N\""))
        << bad;
}

TEST(DeviceSetting, a_gpu_that_cannot_be_used_is_a_clear_error) {
  EXPECT_NO_THROW(util::require_available(kCpu, "compute.device"));
  if (!at::hasCUDA()) {
    EXPECT_THAT(testing_support::error_message<std::runtime_error>(
                    [&] { util::require_available(kGpu, "compute.device"); }),
                HasSubstr("compute.device = \"cuda:0\": this bhpm was built against a LibTorch "
                          "without CUDA, or no GPU is visible"));
    return;
  }
  EXPECT_NO_THROW(util::require_available(kGpu, "compute.device"));
  EXPECT_THAT(testing_support::error_message<std::runtime_error>(
                  [&] { util::require_available(at::Device(at::kCUDA, 99), "compute.device"); }),
              HasSubstr("GPU(s) are visible"));
}

TEST(CudaDevice, the_three_training_phases_give_the_cpus_numbers) {
  SKIP_WITHOUT_CUDA();
  model::BhpmTrainingOptions options = testing_fixture::small_training_options("");
  const model::BhpmTrainingResult on_cpu =
      model::train_bhpm(testing_fixture::small_training_data(), options);
  options.device = kGpu;
  const model::BhpmTrainingResult on_gpu =
      model::train_bhpm(testing_fixture::small_training_data(), options);
  for (const auto& p : on_gpu.model->parameters()) EXPECT_TRUE(p.is_cuda());
  const at::Tensor cpu = flat_parameters(*on_cpu.model), gpu = flat_parameters(*on_gpu.model);
  EXPECT_LT(largest_difference(cpu, gpu), 1e-7 * cpu.abs().max().item<double>());
  EXPECT_NEAR(on_gpu.joint.final_loss, on_cpu.joint.final_loss,
              1e-8 * std::abs(on_cpu.joint.final_loss));
}

TEST(CudaDevice, both_samplers_predictions_give_the_cpus_numbers) {
  SKIP_WITHOUT_CUDA();
  for (const std::string sampler : {"conditioned", "pathwise"}) {
    const solve::Prediction cpu = predict_on(kCpu, sampler), gpu = predict_on(kGpu, sampler);
    ASSERT_EQ(gpu.ensemble.diverged_count(), 0) << sampler;
    EXPECT_TRUE(gpu.ensemble.u.device().is_cpu()) << "results come back to the CPU";
    EXPECT_LT(largest_difference(cpu.ensemble.u, gpu.ensemble.u), 1e-9) << sampler;
    EXPECT_LT(largest_difference(cpu.ensemble.growth, gpu.ensemble.growth), 1e-9) << sampler;
  }
}

TEST(CudaDevice, held_out_leaves_and_the_roots_predictive_give_the_cpus_numbers) {
  SKIP_WITHOUT_CUDA();
  const model::BhpmTrainingOptions options = testing_fixture::small_training_options("");
  model::BhpmTrainingResult trained =
      model::train_bhpm(testing_fixture::small_training_data(), options);
  model::LeafTrainingOptions schedule = options.leaf_training;
  schedule.iterations = 10;
  const auto fit_and_score = [&](at::Device device) {
    const auto [fitted, kept_back] = model::keep_back_points(
        model::on_device(testing_fixture::small_training_data(), device), 8);
    const model::LeafModel leaves =
        model::fit_held_out_leaves(fitted, options.leaves, schedule, options.seed, {});
    return model::leaf_predictive(*leaves, fitted, kept_back);
  };
  const gp::MarginalNormal cpu = fit_and_score(kCpu), gpu = fit_and_score(kGpu);
  EXPECT_TRUE(gpu.mean.is_cuda());
  EXPECT_LT(largest_difference(cpu.mean, gpu.mean), 1e-8);
  EXPECT_LT(largest_difference(cpu.variance, gpu.variance),
            1e-8 * cpu.variance.max().item<double>());

  const at::Tensor inputs = at::randn({100, 3}, at::kDouble);
  const gp::MarginalNormal on_cpu = eval::root_predictive(trained.model->root(), inputs);
  trained.model->to(kGpu);
  const gp::MarginalNormal on_gpu = eval::root_predictive(trained.model->root(), inputs);
  EXPECT_TRUE(on_gpu.mean.device().is_cpu()) << "the predictive follows the inputs' device";
  EXPECT_LT(largest_difference(on_cpu.mean, on_gpu.mean), 1e-10);
  EXPECT_LT(largest_difference(on_cpu.variance, on_gpu.variance), 1e-10);
}
