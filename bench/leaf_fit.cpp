/// Phase 1 on one noise-free default Burgers experiment (n_st = 8192): fits a leaf and
/// prints the relative L2 errors of u, u_x and u_xx over the whole stored grid (truth:
/// spectral derivatives of the grid), the learned noise scale, and the time taken.
/// Defaults are the paper's schedule: 1e4 full-batch Adam steps at 1e-3. Figure line
/// (bench/figure_line.h): the fit's time, with the relative errors it reached.
///
/// Usage: leaf_fit [iterations=10000] [batch=0 (all)] [lr=1e-3] [final_lr=-1 (constant)]
///                 [first_omega=3] [noise=0]

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "nn/taylor_forward.h"
#include "pde/dataset_defaults.h"
#include "pde/experiment_set.h"
#include "pde/measured_experiment.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

double argument(int argc, char** argv, int index, double fallback) {
  return argc > index ? std::stod(argv[index]) : fallback;
}

double relative_l2(const at::Tensor& predicted, const at::Tensor& truth) {
  return ((predicted - truth).norm() / truth.norm()).item<double>();
}

pde::ExperimentSet burgers_experiment(double noise) {
  const pde::DatasetDefaults d = pde::dataset_defaults("burgers");
  pde::ExperimentSetOptions options;
  options.experiments = 1;
  options.seed = 3;
  options.initial_condition.gp = {d.ic_amplitude, d.ic_length_scale};
  options.measurements = {8192, noise};
  options.solve.t_end = d.t_end;
  options.solve.output_dt = 0.1;
  options.solve.stepper.dt = d.dt;
  return pde::simulate_experiment_set(pde::PeriodicGrid(d.x_min, d.x_max, d.modes),
                                      pde::make_equation({}), options);
}

}  // namespace

int main(int argc, char** argv) {
  cli::configure_process();
  cli::use_threads(0);
  model::LeafTrainingOptions training;
  training.iterations = static_cast<std::int64_t>(argument(argc, argv, 1, 10000));
  training.batch_size = static_cast<std::int64_t>(argument(argc, argv, 2, 0));
  training.learning_rate = argument(argc, argv, 3, 1e-3);
  training.final_learning_rate = argument(argc, argv, 4, -1);
  training.report_every = std::max<std::int64_t>(1, training.iterations / 10);
  model::LeafModelOptions leaf;
  leaf.network.first_omega = argument(argc, argv, 5, leaf.network.first_omega);
  const double noise = argument(argc, argv, 6, 0.0);

  const pde::ExperimentSet set = burgers_experiment(noise);
  const model::LeafData data =
      model::leaf_data_from_measurements(pde::measured_experiments(set), 1, 8192, "burgers");
  model::LeafModel leaves(leaf);
  const util::Stopwatch stopwatch;
  model::train_leaves(*leaves, data, training, [](const model::TrainingProgress& p) {
    std::fprintf(stderr, "  %lld/%lld nll %.4f sigma %.3e %.1f it/s\n",
                 static_cast<long long>(p.iteration), static_cast<long long>(p.iterations),
                 p.terms[0].second, p.terms[1].second, p.iterations_per_second);
  });
  const double seconds = stopwatch.seconds();

  const pde::PeriodicGrid grid(-8, 8, set.x.size(0));
  const at::Tensor u = set.u[0];
  const at::Tensor x = set.x.unsqueeze(0).expand_as(u).reshape({1, -1});
  const at::Tensor t = set.t.unsqueeze(1).expand_as(u).reshape({1, -1});
  at::NoGradGuard no_grad;
  const at::Tensor v = nn::taylor_forward(leaves->network(), x, t, data.boxes, 2).u_x_derivatives;
  std::printf(
      "iterations %lld, batch %lld, lr %g -> %g, first_omega %g, noise %g, %d threads: "
      "%.1f s (%.1f ms/step)\n",
      static_cast<long long>(training.iterations), static_cast<long long>(training.batch_size),
      training.learning_rate, training.final_learning_rate, leaf.network.first_omega, noise,
      at::get_num_threads(), seconds,
      1e3 * seconds / std::max<double>(1, static_cast<double>(training.iterations)));
  const double error_u = relative_l2(v[0][0], u.reshape(-1));
  const double error_u_x = relative_l2(v[1][0], grid.derivative(u, 1).reshape(-1));
  const double error_u_xx = relative_l2(v[2][0], grid.derivative(u, 2).reshape(-1));
  std::printf("relative L2 error on the grid: u %.2e  u_x %.2e  u_xx %.2e  learned sigma %.3e\n",
              error_u, error_u_x, error_u_xx, leaves->noise_scale()[0].item<double>());
  bench::print_figure(
      bench::formatted("leaf fit (phase 1), 1 Burgers experiment, n_st = 8192, %lld steps, "
                       "%s",
                       static_cast<long long>(training.iterations),
                       bench::threads(at::get_num_threads()).c_str()),
      seconds, "s",
      bench::formatted("relative L2 on the grid: u %.2e, u_x %.2e, u_xx %.2e", error_u, error_u_x,
                       error_u_xx),
      bench::formatted(
          "batch %lld (0: all), lr %g, noise %g; %.1f ms/step",
          static_cast<long long>(training.batch_size), training.learning_rate, noise,
          1e3 * seconds / std::max<double>(1, static_cast<double>(training.iterations))));
  return 0;
}
