/// Generates the paper's training sets, 10 Burgers + 10 KdV experiments at the default
/// resolution and time step (the same code path as `bhpm simulate`), and prints the time
/// per experiment and the total. Then checks the accuracy of those defaults against
/// exact solutions on the same grids: the KdV soliton (c = 1.5) over [0, 40] and viscous
/// Burgers through Cole-Hopf for the default GP initial conditions with their mean removed.
/// Figure lines (bench/figure_line.h): each equation's time and the total, with the error
/// of the same grid and step against its exact solution.
///
/// Usage: simulate_datasets [experiments=10]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <string>

#include "cli/process_setup.h"
#include "config/config_reader.h"
#include "config/simulate_config.h"
#include "figure_line.h"
#include "pde/exact_solutions.h"
#include "pde/experiment_set.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

config::SimulateConfig default_config(const std::string& equation, std::int64_t experiments) {
  config::ConfigReader reader = config::ConfigReader::from_string(
      "[equation]\nname = \"" + equation +
          "\"\n[data]\ntrain_experiments = " + std::to_string(experiments) + "\n",
      "bench");
  return config::read_simulate_config(reader, ".");
}

pde::ExperimentSetOptions train_set(const config::SimulateConfig& config) {
  pde::ExperimentSetOptions options;
  options.experiments = config.train_experiments;
  options.seed = config.seed;
  options.initial_condition = config.initial_condition;
  options.measurements = config.measurements;
  options.solve = config.solve;
  return options;
}

double time_training_set(const std::string& equation, std::int64_t experiments) {
  const config::SimulateConfig config = default_config(equation, experiments);
  const pde::PeriodicGrid grid(config.x_min, config.x_max, config.modes);
  const util::Stopwatch stopwatch;
  const pde::ExperimentSet set =
      pde::simulate_experiment_set(grid, pde::make_equation(config.equation), train_set(config));
  const double seconds = stopwatch.seconds();
  std::printf(
      "%-8s %3lld experiments  %4lld modes  %4lld outputs  dt %-8.3g %8.3f s  "
      "%8.4f s/experiment\n",
      equation.c_str(), static_cast<long long>(experiments), static_cast<long long>(config.modes),
      static_cast<long long>(set.t.size(0)), set.dt, seconds,
      seconds / static_cast<double>(experiments));
  return seconds;
}

/// The max error of the default KdV grid and step on a soliton, over [0, t_end].
double kdv_soliton_accuracy() {
  const config::SimulateConfig config = default_config("kdv", 1);
  const pde::PeriodicGrid grid(config.x_min, config.x_max, config.modes);
  const double c = 1.5, x0 = -5.0;
  const pde::Solution s =
      pde::solve_periodic(grid, pde::make_equation(config.equation),
                          pde::kdv_soliton(grid.x(), 0, c, x0, grid.length()), config.solve);
  double error = 0;
  for (int64_t i = 0; i < s.t.size(0); ++i) {
    const at::Tensor exact =
        pde::kdv_soliton(grid.x(), s.t[i].item<double>(), c, x0, grid.length());
    error = std::max(error, (s.u[0][i] - exact).abs().max().item<double>());
  }
  std::printf("kdv soliton c = %.1f (amplitude %.1f) over [0, %.0f]: max error %.2e\n", c, 3 * c,
              config.solve.t_end, error);
  return error;
}

/// The max error of the default Burgers grid and step against Cole-Hopf, over `experiments`
/// zero-mean GP initial conditions.
double burgers_cole_hopf_accuracy(std::int64_t experiments) {
  const config::SimulateConfig config = default_config("burgers", experiments);
  const pde::PeriodicGrid grid(config.x_min, config.x_max, config.modes);
  at::Tensor u0 = pde::make_initial_conditions(grid, config.initial_condition, experiments,
                                               config.seed, "train/initial_condition");
  u0 = u0 - u0.mean(1, true);
  const pde::Solution s =
      pde::solve_periodic(grid, pde::make_equation(config.equation), u0, config.solve);
  double worst = 0;
  for (int64_t e = 0; e < experiments; ++e)
    worst = std::max(worst, (s.u[e] - pde::burgers_cole_hopf(grid, u0[e], config.equation.nu, s.t))
                                .abs()
                                .max()
                                .item<double>());
  std::printf(
      "burgers Cole-Hopf, %lld zero-mean GP initial conditions (max|u0| %.2f): max error "
      "%.2e\n",
      static_cast<long long>(experiments), u0.abs().max().item<double>(), worst);
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();
  const std::int64_t experiments = argc > 1 ? std::stoll(argv[1]) : 10;
  std::printf("threads: %d\n", at::get_num_threads());
  const double burgers = time_training_set("burgers", experiments);
  const double kdv = time_training_set("kdv", experiments);
  const double total = burgers + kdv;
  std::printf("total for %lld + %lld experiments: %.2f s\n\n", static_cast<long long>(experiments),
              static_cast<long long>(experiments), total);
  const double kdv_error = kdv_soliton_accuracy();
  const double burgers_error = burgers_cole_hopf_accuracy(experiments);
  const std::string burgers_accuracy =
      bench::formatted("max error vs Cole-Hopf %.2e (zero-mean initial conditions)", burgers_error);
  const std::string kdv_accuracy =
      bench::formatted("max error vs a soliton (c = 1.5) %.2e", kdv_error);
  const std::string note = bench::formatted(
      "default grid and step; %s; accuracy: that grid and step on an exact solution",
      bench::threads(at::get_num_threads()).c_str());
  bench::print_figure(bench::formatted("simulate %lld Burgers training experiments",
                                       static_cast<long long>(experiments)),
                      burgers, "s", burgers_accuracy, note);
  bench::print_figure(bench::formatted("simulate %lld KdV training experiments",
                                       static_cast<long long>(experiments)),
                      kdv, "s", kdv_accuracy, note);
  bench::print_figure(
      bench::formatted("simulate %lld + %lld training experiments (both)",
                       static_cast<long long>(experiments), static_cast<long long>(experiments)),
      total, "s",
      bench::formatted("max error Burgers %.2e, KdV %.2e (as above)", burgers_error, kdv_error),
      note);
  return 0;
}
