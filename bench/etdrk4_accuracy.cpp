/// Measures the time-stepping error of ETDRK4 against the step size on the default
/// Burgers and KdV datasets (GP initial conditions, default grids, dealiasing by padding):
/// the maximum error over all output times and experiments against a reference solved
/// with a step 8x smaller than the smallest one tested, and the observed order between
/// successive steps. This is how the default time steps in config/simulate_config.cpp were
/// chosen. Then the adaptive steps (solver.tolerance) against the same reference: error,
/// steps taken and rejected, time; and what the 2/3 rule changes (solver.dealias =
/// "truncate" at the reference step against the reference). Last, the adaptive steps on two
/// colliding KdV solitons against the exact solution (docs/solver.md, "Adaptive time
/// steps"). Figure lines (bench/figure_line.h): the time of each dataset's solve at its
/// default step and with adaptive steps at tolerance 1e-8, with their errors against the
/// reference, and of the two solitons at tolerance 1e-9 with its error against the exact one.
/// First, one 256-mode Burgers solve of the default dataset against Cole-Hopf on one thread,
/// on plain arrays and with batched tensors (pde/plain_periodic_solve.h; docs/solver.md,
/// "Two engines"): the median time of five solves and the error at each step setting.
///
/// Usage: etdrk4_accuracy [experiments=4]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "pde/dataset_defaults.h"
#include "pde/equation.h"
#include "pde/exact_solutions.h"
#include "pde/initial_condition.h"
#include "pde/periodic_solve.h"
#include "pde/plain_periodic_solve.h"
#include "util/stopwatch.h"

using namespace bhpm::pde;

namespace {

struct Case {
  std::string name;
  std::vector<double> steps;
};

double max_difference(const at::Tensor& a, const at::Tensor& b) {
  return (a - b).abs().max().item<double>();
}

/// Fixed steps c.steps; the figure line of the one equal to `default_step`.
void fixed_steps(const Case& c, const PeriodicGrid& grid, const Equation& equation,
                 const at::Tensor& u0, SolveOptions options, const at::Tensor& reference,
                 double default_step) {
  std::printf("%10s %14s %8s %12s\n", "dt", "max error", "order", "seconds");
  double previous_error = 0, previous_dt = 0;
  for (double dt : c.steps) {
    options.stepper.dt = dt;
    const bhpm::util::Stopwatch stopwatch;
    double error = INFINITY;
    try {
      error = max_difference(solve_periodic(grid, equation, u0, options).u, reference);
    } catch (const SolverDivergence&) {
    }
    const double seconds = stopwatch.seconds();
    const double order = previous_error > 0 && std::isfinite(error)
                             ? std::log(previous_error / error) / std::log(previous_dt / dt)
                             : NAN;
    std::printf("%10.3g %14.3e %8.2f %12.3f\n", dt, error, order, seconds);
    if (std::abs(dt - default_step) <= 1e-9 * default_step)
      bhpm::bench::print_figure(
          bhpm::bench::formatted("etdrk4 %s solve, default dt %g", c.name.c_str(), dt), seconds,
          "s", bhpm::bench::formatted("max error vs reference %.2e", error),
          bhpm::bench::formatted("%lld GP initial conditions, %lld points, %s",
                                 static_cast<long long>(u0.size(0)),
                                 static_cast<long long>(grid.x().size(0)),
                                 bhpm::bench::threads(at::get_num_threads()).c_str()));
    previous_error = error;
    previous_dt = dt;
  }
}

/// Adaptive steps, the first one tried the dataset's default step; the figure line of
/// tolerance 1e-8.
void adaptive_steps(const std::string& name, const PeriodicGrid& grid, const Equation& equation,
                    const at::Tensor& u0, SolveOptions options, double first_step,
                    const at::Tensor& reference) {
  std::printf("%10s %14s %8s %9s %12s\n", "tolerance", "max error", "steps", "rejected", "seconds");
  options.stepper.dt = first_step;
  for (double tolerance : {1e-6, 1e-7, 1e-8, 1e-9, 1e-10}) {
    options.tolerance = tolerance;
    const bhpm::util::Stopwatch stopwatch;
    const Solution s = solve_periodic(grid, equation, u0, options);
    const double seconds = stopwatch.seconds();
    const double error = max_difference(s.u, reference);
    std::printf("%10.0e %14.3e %8lld %9lld %12.3f\n", tolerance, error,
                static_cast<long long>(s.steps), static_cast<long long>(s.rejected_steps), seconds);
    if (tolerance == 1e-8)
      bhpm::bench::print_figure(
          bhpm::bench::formatted("etdrk4 %s solve, adaptive steps, tolerance 1e-8", name.c_str()),
          seconds, "s", bhpm::bench::formatted("max error vs reference %.2e", error),
          bhpm::bench::formatted("%lld GP initial conditions, %lld steps (%lld rejected), %s",
                                 static_cast<long long>(u0.size(0)),
                                 static_cast<long long>(s.steps),
                                 static_cast<long long>(s.rejected_steps),
                                 bhpm::bench::threads(at::get_num_threads()).c_str()));
  }
}

void study(const Case& c, std::int64_t experiments) {
  EquationOptions eq_options;
  eq_options.name = c.name;
  const Equation equation = make_equation(eq_options);
  const DatasetDefaults d = dataset_defaults(c.name);
  const PeriodicGrid grid(d.x_min, d.x_max, d.modes);
  InitialConditionOptions ic;
  ic.gp = {d.ic_amplitude, d.ic_length_scale};
  const at::Tensor u0 = make_initial_conditions(grid, ic, experiments, 1, "accuracy");
  SolveOptions options;
  options.t_end = d.t_end;
  options.output_dt = d.output_dt;
  options.stepper.dt = c.steps.back() / 8.0;
  const at::Tensor reference = solve_periodic(grid, equation, u0, options).u;
  const double scale = reference.abs().max().item<double>();
  std::printf(
      "\n%s: %lld modes on [%g, %g] x [0, %g], %lld GP initial conditions, "
      "max|u| = %.3g, reference dt = %.3g\n",
      c.name.c_str(), static_cast<long long>(d.modes), d.x_min, d.x_max, d.t_end,
      static_cast<long long>(experiments), scale, options.stepper.dt);
  fixed_steps(c, grid, equation, u0, options, reference, d.dt);
  adaptive_steps(c.name, grid, equation, u0, options, d.dt, reference);
  SolveOptions truncated = options;
  truncated.stepper.dealias = "truncate";
  std::printf("2/3 rule instead of padding, at the reference step: max difference %.3e\n",
              max_difference(solve_periodic(grid, equation, u0, truncated).u, reference));
}

/// Speeds 3 and 2 seen from a frame moving at 2.5, so that both stay inside [-30, 30);
/// 512 modes, t in [0, 12], outputs every 0.5: max error over the outputs, steps, seconds.
void colliding_solitons() {
  const auto exact = [](const at::Tensor& x, double t) {
    return kdv_two_soliton(x + 2.5 * t, t, std::sqrt(3.0), -3.0, std::sqrt(2.0), 3.0) - 2.5;
  };
  const PeriodicGrid grid(-30.0, 30.0, 512);
  EquationOptions kdv;
  kdv.name = "kdv";
  const Equation equation = make_equation(kdv);
  SolveOptions options;
  options.t_end = 12.0;
  options.output_dt = 0.5;
  options.stepper.dt = 2.5e-3;
  std::printf("\ntwo colliding KdV solitons, 512 modes on [-30, 30) x [0, 12]\n");
  std::printf("%10s %14s %8s %9s %12s\n", "tolerance", "max error", "steps", "rejected", "seconds");
  for (double tolerance : {1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11}) {
    options.tolerance = tolerance;
    const bhpm::util::Stopwatch stopwatch;
    const Solution s = solve_periodic(grid, equation, exact(grid.x(), 0.0), options);
    const double seconds = stopwatch.seconds();
    double error = 0;
    for (std::int64_t i = 0; i < s.t.size(0); ++i)
      error = std::max(error, max_difference(s.u[0][i], exact(grid.x(), s.t[i].item<double>())));
    std::printf("%10.0e %14.3e %8lld %9lld %12.3f\n", tolerance, error,
                static_cast<long long>(s.steps), static_cast<long long>(s.rejected_steps), seconds);
    if (tolerance == 1e-9)
      bhpm::bench::print_figure(
          "etdrk4 two colliding KdV solitons, adaptive steps, tolerance 1e-9", seconds, "s",
          bhpm::bench::formatted("max error vs exact %.2e", error),
          bhpm::bench::formatted("512 modes, t in [0, 12], %lld steps (%lld rejected), %s",
                                 static_cast<long long>(s.steps),
                                 static_cast<long long>(s.rejected_steps),
                                 bhpm::bench::threads(at::get_num_threads()).c_str()));
  }
}

/// Median seconds of `repeats` calls of `solve`, and its last result.
template <typename Solve>
std::pair<double, Solution> median_time(int repeats, const Solve& solve) {
  std::vector<double> seconds;
  Solution last;
  for (int r = 0; r < repeats; ++r) {
    const bhpm::util::Stopwatch stopwatch;
    last = solve();
    seconds.push_back(stopwatch.seconds());
  }
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], last};
}

/// One zero-mean GP initial condition of the default Burgers dataset (256 modes, t in
/// [0, 10], outputs every 0.05) on one thread, both engines, against Cole-Hopf.
void one_burgers_solve() {
  const DatasetDefaults d = dataset_defaults("burgers");
  const PeriodicGrid grid(d.x_min, d.x_max, d.modes);
  EquationOptions burgers;
  burgers.name = "burgers";
  const Equation equation = make_equation(burgers);
  InitialConditionOptions ic;
  ic.gp = {d.ic_amplitude, d.ic_length_scale};
  at::Tensor u0 = make_initial_conditions(grid, ic, 1, 1, "one solve")[0];
  u0 = u0 - u0.mean();
  SolveOptions options;
  options.t_end = d.t_end;
  options.output_dt = d.output_dt;
  options.stepper.dt = d.dt;
  const at::Tensor exact = burgers_cole_hopf(grid, u0, burgers.nu, output_times(options));
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  std::printf("\none %lld-mode Burgers solve against Cole-Hopf, t in [0, %g], 1 thread\n",
              static_cast<long long>(d.modes), d.t_end);
  std::printf("%12s %8s %14s %14s %14s %10s\n", "tolerance", "steps", "max error", "plain (ms)",
              "batched (ms)", "ratio");
  for (double tolerance : {0.0, 1e-7, 1e-8, 1e-9}) {
    options.tolerance = tolerance;
    const auto [plain_seconds, plain] =
        median_time(5, [&] { return solve_periodic_plain(grid, equation, u0, options); });
    const auto [batched_seconds, batched] =
        median_time(5, [&] { return solve_periodic_batched(grid, equation, u0, options); });
    const double error = max_difference(plain.u[0], exact);
    std::printf("%12.0e %8lld %14.3e %14.2f %14.2f %10.1f   (engines differ by %.1e)\n", tolerance,
                static_cast<long long>(plain.steps), error, 1e3 * plain_seconds,
                1e3 * batched_seconds, batched_seconds / plain_seconds,
                max_difference(plain.u, batched.u));
    const std::string setting =
        tolerance > 0 ? bhpm::bench::formatted("adaptive steps, tolerance %.0e", tolerance)
                      : bhpm::bench::formatted("default dt %g", d.dt);
    for (const auto& [engine, seconds] :
         {std::pair<std::string, double>{"plain arrays", plain_seconds},
          {"batched tensors", batched_seconds}})
      if (tolerance == 0.0 || tolerance == 1e-8)
        bhpm::bench::print_figure(
            bhpm::bench::formatted("one 256-mode burgers solve, %s, %s", engine.c_str(),
                                   setting.c_str()),
            1e3 * seconds, "ms", bhpm::bench::formatted("max error vs Cole-Hopf %.2e", error),
            bhpm::bench::formatted("%lld steps, t in [0, %g], median of 5, 1 thread",
                                   static_cast<long long>(plain.steps), d.t_end));
  }
  at::set_num_threads(threads);
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();
  const std::int64_t experiments = argc > 1 ? std::stoll(argv[1]) : 4;
  one_burgers_solve();
  study({"burgers", {2e-2, 1e-2, 5e-3, 4e-3, 2.5e-3, 2e-3}}, experiments);
  study({"kdv", {1e-2, 5e-3, 4e-3, 2.5e-3, 2e-3, 1e-3}}, experiments);
  colliding_solitons();
  return 0;
}
