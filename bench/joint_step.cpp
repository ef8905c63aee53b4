/// Time of one iteration of each training phase (paper appendix B) and the projected time
/// of the paper's full protocol (N = 4, n_st = 8192, K = 2) on this machine:
///   phase 1  leaves alone: forward + NLL + backward + Adam step, 4 leaves x B points
///   phase 2  exact GP on 1024 root rows: -log p(y | X) + backward + Adam step
///   phase 3  joint: Taylor pass (u, u_x, u_xx, u_t) of 4 leaves x 1024 points, leaf NLL,
///            sparse-GP ELBO over the 4096 root rows (128 inducing inputs), backward
///            through leaves and root, Adam step over every parameter; also with the
///            leaves' noisy-input term (root.input_noise = "laplace", model/leaf_laplace.h).
/// Leaves are the default 6 x 64 sine MLPs (float32 hidden layers, nn/sine_mlp.h), every
/// core's ATen thread, on `device` (cpu, cuda or cuda:N). Data: smooth Burgers-like fields
/// on the default Burgers box. Each figure is the median of several iterations after
/// warm-up; an iteration ends when its new parameters can be read (so a GPU's queued work
/// is counted). Target for phase 3: < 100 ms. Figure lines (bench/figure_line.h): each
/// phase's iteration, with the objective of its last iteration, and the projected protocols.
///
/// Usage: joint_step [repetitions=15] [device=cpu]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/optim/adam.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "model/bhpm_model.h"
#include "model/exact_root_training.h"
#include "model/root_data.h"
#include "model/root_gp.h"
#include "nn/sine_mlp.h"
#include "util/device.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

constexpr std::int64_t kLeaves = 4;
constexpr int kOrder = 2;
at::Device device = at::kCPU;  // where every phase runs (the second argument)

/// 4 experiments of `points` measurements of u = 0.4 sin(pi x / 8 + phase) exp(-t / 20).
model::LeafData synthetic_data(std::int64_t points) {
  at::manual_seed(3);
  model::LeafData data;
  data.x = at::rand({kLeaves, points}, at::kDouble) * 16 - 8;
  data.t = at::rand({kLeaves, points}, at::kDouble) * 10;
  const at::Tensor phase = at::arange(kLeaves, at::kDouble).unsqueeze(1);
  data.u = 0.4 * at::sin(M_PI * data.x / 8 + phase) * at::exp(-data.t / 20);
  data.boxes.assign(kLeaves, nn::DomainBox{-8, 8, 0, 10});
  return model::on_device(data, device);
}

model::LeafModel leaf_model() {
  model::LeafModelOptions options;
  options.network.leaves = kLeaves;
  model::LeafModel leaves(options);
  leaves->to(device);
  return leaves;
}

/// A phase's median iteration and the objective that its last iteration minimised.
struct Timing {
  double ms = 0, objective = 0;
};

/// Median milliseconds of `step` after three warm-up calls.
double median_ms(const std::function<void()>& step, int repetitions) {
  for (int i = 0; i < 3; ++i) step();
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    const util::Stopwatch stopwatch;
    step();
    times.push_back(1e3 * stopwatch.seconds());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

/// An Adam step on `loss()` over `parameters`, finished (a parameter read back); the loss,
/// detached, into `last` (read after the timing).
std::function<void()> adam_step(std::vector<at::Tensor> parameters,
                                std::function<at::Tensor()> loss, at::Tensor& last) {
  auto adam = std::make_shared<torch::optim::Adam>(parameters, torch::optim::AdamOptions(1e-4));
  return [adam, loss, &last] {
    adam->zero_grad();
    const at::Tensor value = loss();
    value.backward();
    adam->step();
    adam->param_groups().front().params().front().sum().item<double>();
    last = value.detach();
  };
}

/// The median iteration of adam_step(parameters, loss) and its last loss.
Timing timed_adam(std::vector<at::Tensor> parameters, std::function<at::Tensor()> loss,
                  int repetitions) {
  at::Tensor last;
  Timing timing;
  timing.ms = median_ms(adam_step(std::move(parameters), std::move(loss), last), repetitions);
  timing.objective = last.item<double>();
  return timing;
}

Timing leaves_ms(std::int64_t points, int repetitions) {
  const model::LeafData data = synthetic_data(points);
  model::LeafModel leaves = leaf_model();
  return timed_adam(
      leaves->parameters(),
      [&] {
        return leaves
            ->negative_log_likelihood(leaves->network().forward(data.x, data.t, data.boxes), data.u)
            .sum();
      },
      repetitions);
}

Timing exact_gp_ms(int repetitions) {
  const model::LeafData data = synthetic_data(256);
  model::LeafModel leaves = leaf_model();
  gp::ExactGp exact = model::make_exact_root(model::root_data_detached(*leaves, data, kOrder));
  exact->to(device);
  return timed_adam(
      exact->parameters(), [&] { return -exact->log_marginal_likelihood() / 1024.0; }, repetitions);
}

Timing joint_ms(int repetitions, bool leaf_input_noise) {
  const model::LeafData data = synthetic_data(1024);
  model::LeafModel leaves = leaf_model();
  const model::RootData root = model::root_data_detached(*leaves, data, kOrder);
  gp::ExactGp exact = model::make_exact_root(model::random_rows(root, 1024, 1));
  exact->to(device);
  model::BhpmModel bhpm(leaves, model::make_sparse_root(*exact, root.inputs, {}, 1), kOrder,
                        leaf_input_noise);
  bhpm->to(device);
  return timed_adam(
      bhpm->parameters(), [&] { return bhpm->objective(data, 8192).loss; }, repetitions);
}

}  // namespace

int main(int argc, char** argv) {
  cli::configure_process();
  cli::use_threads(0);
  const int repetitions = argc > 1 ? std::max(1, std::stoi(argv[1])) : 15;
  device = util::parse_device(argc > 2 ? argv[2] : "cpu", "joint_step: device");
  util::require_available(device, "joint_step: device");
  std::printf(
      "device %s, ATen threads: %d; leaves' hidden layers in %s; median of %d iterations "
      "(forward, backward, Adam)\n\n",
      device.str().c_str(), at::get_num_threads(), nn::SineMlpOptions{}.precision.c_str(),
      repetitions);
  const Timing joint = joint_ms(repetitions, false);
  std::printf("phase 3 joint, 4 leaves x 1024 points + sparse GP over 4096 (K = 2): %8.1f ms\n",
              joint.ms);
  const Timing laplace = joint_ms(repetitions, true);
  std::printf("  the same with the leaves' noisy-input term (input_noise = laplace): %8.1f ms\n",
              laplace.ms);
  const Timing exact = exact_gp_ms(repetitions);
  std::printf("phase 2 exact GP on 1024 root rows:                                %8.1f ms\n",
              exact.ms);
  const Timing minibatch = leaves_ms(1024, repetitions);
  std::printf("phase 1 leaves, 4 x 1024 points:                                   %8.1f ms\n",
              minibatch.ms);
  const int full_repetitions = std::max(3, repetitions / 3);
  const Timing full = leaves_ms(8192, full_repetitions);
  std::printf("phase 1 leaves, 4 x 8192 points (the paper's full batch):          %8.1f ms\n\n",
              full.ms);

  const double phases_23 = 2000 * exact.ms + 50000 * joint.ms;
  const double paper_hours = (1e4 * full.ms + phases_23) / 3.6e6;
  const double minibatch_hours = (1e4 * minibatch.ms + phases_23) / 3.6e6;
  std::printf("projected paper protocol (N = 4, n_st = 8192; 1e4 + 2000 + 5e4 iterations):\n");
  std::printf("  phase 1 full batch (as the paper), phase 3 minibatch 1024: %6.2f h\n",
              paper_hours);
  std::printf("  phases 1 and 3 on minibatches of 1024 per leaf:            %6.2f h\n",
              minibatch_hours);
  std::printf("  (the paper: slightly under 4 h on an RTX 2070)\n");

  const std::string where = device.str() + ", " + bench::threads(at::get_num_threads());
  const auto figure = [&](const std::string& name, const Timing& timing, const char* objective,
                          int median_of) {
    bench::print_figure(name + ", " + where, timing.ms, "ms",
                        bench::formatted("%s %.6g", objective, timing.objective),
                        bench::formatted("forward, backward, Adam; median of %d", median_of));
  };
  figure("joint step (phase 3), 4 leaves x 1024 points + sparse GP over 4096", joint, "joint loss",
         repetitions);
  figure("joint step (phase 3) with input_noise = laplace", laplace, "joint loss", repetitions);
  figure("exact GP step (phase 2), 1024 root rows", exact, "-log p(y|X) / 1024", repetitions);
  figure("leaf step (phase 1), 4 leaves x 1024 points", minibatch, "leaf NLL", repetitions);
  figure("leaf step (phase 1), 4 leaves x 8192 points", full, "leaf NLL", full_repetitions);
  bench::print_figure("projected paper protocol, phase 1 full batch, " + where, paper_hours, "h",
                      "", "N = 4, n_st = 8192; 1e4 + 2000 + 5e4 iterations at the times above");
  bench::print_figure("projected paper protocol, phases 1 and 3 on minibatches of 1024, " + where,
                      minibatch_hours, "h", "",
                      "N = 4, n_st = 8192; 1e4 + 2000 + 5e4 iterations at the times above");
  return 0;
}
