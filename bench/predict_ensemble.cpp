/// Wall time of a 32-sample Burgers prediction ensemble with the spectral solver (target:
/// under 30 s on 2 cores; measured figures in docs/predictions.md, "Speed of predictions"), per
/// sampler: Algorithm 1 (the root conditioned on its inducing inputs with a draw of q(u), then
/// on new points until L_c < 1e-4 s^2) and pathwise samples (random Fourier features). The
/// IBVP is the data's: a new periodic-GP initial condition on [-8, 8], 256 points, t in
/// [0, 10], snapshots every 0.05, ETDRK4 at the data's step 5e-3, at 2e-2 and with adaptive
/// steps to a local error of 1e-8 (first step 5e-3; steps taken and rejected printed).
/// PINN iterations are timed by bench/pinn_step. There is no exact solution to score
/// against; the accuracy printed is the largest difference of each ensemble's mean (over its
/// sound members) from the mean of the same sampler at the data's step (same seed). Figure
/// lines (bench/figure_line.h): the time of each sampler and step setting, with that
/// difference.
///
/// Usage: predict_ensemble RUN_DIR [samples=32] [threads=2] [device=cpu]   (RUN_DIR from
/// `bhpm train`, e.g. out/quickstart after scripts/quickstart.sh; device cpu, cuda or cuda:N)

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <functional>
#include <string>

#include "cli/process_setup.h"
#include "config/run_layout.h"
#include "figure_line.h"
#include "io/checkpoint.h"
#include "load_average.h"
#include "model/root_gp.h"
#include "pde/initial_condition.h"
#include "solve/predictor.h"
#include "util/device.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

double seconds_of(const std::function<void()>& work) {
  const util::Stopwatch stopwatch;
  work();
  return stopwatch.seconds();
}

/// The mean over the members that neither diverged nor were rejected, [T, n].
at::Tensor sound_mean(const solve::EnsembleSolution& ensemble) {
  at::Tensor sound = ensemble.diverged.logical_not();
  if (ensemble.rejected.defined()) sound = sound.logical_and(ensemble.rejected.logical_not());
  const at::Tensor rows = sound.nonzero().squeeze(1).to(ensemble.u.device());
  return ensemble.u.index_select(0, rows).mean(0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: predict_ensemble RUN_DIR [samples=32] [threads=2] [device=cpu]\n");
    return 2;
  }
  cli::configure_process();
  const std::string run_dir = argv[1];
  const std::int64_t samples = argc > 2 ? std::stoll(argv[2]) : 32;
  cli::use_threads(argc > 3 ? std::stoi(argv[3]) : 2);
  const std::string path = config::RunLayout{run_dir}.joint_checkpoint();
  gp::SparseVariationalGp root =
      model::sparse_root_from_checkpoint(io::load_checkpoint(path), "root.", path);
  for (at::Tensor& parameter : root->parameters()) parameter.requires_grad_(false);
  const double signal_variance = root->kernel()->prior_variance().item<double>();
  const at::Device device =
      util::parse_device(argc > 4 ? argv[4] : "cpu", "predict_ensemble: device");
  util::require_available(device, "predict_ensemble: device");
  root->to(device);

  const pde::PeriodicGrid grid(-8.0, 8.0, 256);
  solve::PredictionProblem problem{
      grid.on(device), pde::sample_periodic_gp(grid, {0.4, 1.5}, 7), {}, nullptr};
  problem.solve.t_end = 10.0;
  problem.solve.output_dt = 0.05;
  std::printf(
      "load average %.2f, device %s, %d ATen threads, %lld samples, root with %lld inducing "
      "inputs\n",
      bench::load_average(), device.str().c_str(), at::get_num_threads(),
      static_cast<long long>(samples), static_cast<long long>(root->inducing_points()));
  struct Steps {
    double dt, tolerance;
    const char* name;
  };
  for (const char* sampler : {"conditioned", "pathwise"}) {
    at::Tensor reference;  // the mean at the data's step, the first setting
    for (const Steps steps : {Steps{5e-3, 0.0, "dt 5e-3"}, Steps{2e-2, 0.0, "dt 2e-2"},
                              Steps{5e-3, 1e-8, "tol 1e-8"}}) {
      solve::PredictorOptions options;
      options.samples = samples;
      options.sampler = sampler;
      options.pathwise.features = 256;
      options.refinement.tolerance = 1e-4 * signal_variance;
      problem.solve.stepper.dt = steps.dt;
      problem.solve.tolerance = steps.tolerance;
      solve::EnsembleSolution ensemble;
      const double seconds =
          seconds_of([&] { ensemble = solve::predict_ensemble(*root, problem, options).ensemble; });
      std::printf(
          "%-11s %-8s: %6.2f s for %lld samples (%.3f s per sample), %lld diverged, %lld time "
          "steps (%lld rejected)\n",
          sampler, steps.name, seconds, static_cast<long long>(samples),
          seconds / static_cast<double>(samples), static_cast<long long>(ensemble.diverged_count()),
          static_cast<long long>(ensemble.steps), static_cast<long long>(ensemble.rejected_steps));
      const at::Tensor mean = sound_mean(ensemble);
      std::string accuracy = "- (its mean is the reference for this sampler)";
      if (reference.defined())
        accuracy = bench::formatted("mean vs dt 5e-3 mean: max difference %.2e",
                                    (mean - reference).abs().max().item<double>());
      else
        reference = mean;
      bench::print_figure(
          bench::formatted("%lld-sample Burgers prediction, %s, %s, %s",
                           static_cast<long long>(samples), sampler, steps.name,
                           bench::threads(at::get_num_threads()).c_str()),
          seconds, "s", accuracy,
          bench::formatted("%s; %lld diverged; %lld time steps (%lld rejected)",
                           device.str().c_str(), static_cast<long long>(ensemble.diverged_count()),
                           static_cast<long long>(ensemble.steps),
                           static_cast<long long>(ensemble.rejected_steps)));
    }
  }
  return 0;
}
