/// The field-system solver (pde/system_solve.h) against exact solutions, and its cost in two
/// dimensions:
///   1. the NLS soliton (two real fields, [-25, 25), 512 points, t in [0, 4]) against the
///      step tolerance: maximum error over both fields at t = 4, steps kept and rejected,
///      seconds;
///   2. the lambda-omega plane wave (2-D, [0, 2 pi)^2, 16^2 points, t in [0, 4]) with fixed
///      steps: error and observed order per halving of the step;
///   3. the same plane wave on n^2 points, n = 64, 128, 256, 512: seconds per fixed step
///      (the coefficients of its size apart) and per step and point divided by log2(n^2),
///      which stays flat when a step costs O(n^2 log n), and the coefficients' seconds.
/// Figure lines (bench/figure_line.h): the soliton at the default tolerance, a 256^2 step.
/// One thread (the solver is serial).
///
/// Usage: system_solve

#include "pde/system_solve.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "load_average.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "util/stopwatch.h"

using namespace bhpm::pde;
using bhpm::bench::formatted;

namespace {

/// Fields [q, points] of f_i(x, y) on the box.
std::vector<double> sample(const PeriodicBox& box,
                           const std::vector<std::function<double(double, double)>>& fields) {
  std::vector<double> values;
  for (const auto& f : fields)
    for (double y : box.y())
      for (double x : box.x()) values.push_back(f(x, y));
  return values;
}

/// max |u - exact| over the last output of `solution`.
double final_error(const SystemSolution& solution, const std::vector<double>& exact) {
  const std::size_t offset = solution.u.size() - exact.size();
  double error = 0.0;
  for (std::size_t p = 0; p < exact.size(); ++p)
    error = std::max(error, std::abs(solution.u[offset + p] - exact[p]));
  return error;
}

FieldSystem named(const std::string& name) {
  FieldSystemOptions options;
  options.name = name;
  return make_field_system(options);
}

/// psi = eta sech(eta (x - c t)) exp(i (c x + (eta^2 - c^2) t / 2)), eta = 1, c = 0.5.
std::vector<double> soliton(const PeriodicBox& box, double t) {
  const auto part = [t](bool imaginary) {
    return [t, imaginary](double x, double) {
      const double phase = 0.5 * x + 0.375 * t;
      return (imaginary ? std::sin(phase) : std::cos(phase)) / std::cosh(x - 0.5 * t);
    };
  };
  return sample(box, {part(false), part(true)});
}

/// u + i v = a exp(i (Omega t - x - y)), a^2 = 1 - 2 d, Omega = -beta a^2 (d = 0.1, beta = 1).
std::vector<double> plane_wave(const PeriodicBox& box, double t) {
  const double a = std::sqrt(0.8), omega = -0.8;
  return sample(box, {[=](double x, double y) { return a * std::cos(omega * t - x - y); },
                      [=](double x, double y) { return a * std::sin(omega * t - x - y); }});
}

void soliton_against_tolerance() {
  std::printf("NLS soliton, 512 points on [-25, 25), t in [0, 4]\n");
  std::printf("%10s %12s %8s %9s %9s\n", "tolerance", "max error", "steps", "rejected", "seconds");
  const PeriodicBox box(-25.0, 25.0, 512);
  const FieldSystem nls = named("nls");
  const double default_tolerance = SystemSolveOptions{}.tolerance;
  for (const double tolerance : {1e-6, 1e-8, 1e-10, 1e-12}) {
    SystemSolveOptions options;
    options.t_end = 4.0;
    options.output_dt = 1.0;
    options.dt = 0.1;
    options.tolerance = tolerance;
    const bhpm::util::Stopwatch clock;
    const SystemSolution solution = solve_field_system(box, nls, soliton(box, 0.0), options);
    const double seconds = clock.seconds();
    const double error = final_error(solution, soliton(box, 4.0));
    std::printf("%10.0e %12.3e %8lld %9lld %9.3f\n", tolerance, error,
                static_cast<long long>(solution.steps),
                static_cast<long long>(solution.rejected_steps), seconds);
    if (tolerance == default_tolerance)
      bhpm::bench::print_figure("system_solve nls soliton", seconds, "s",
                                formatted("max error %.2e", error),
                                "512 points, t in [0, 4], default tolerance, 1 thread");
  }
}

void plane_wave_order() {
  std::printf("\nlambda-omega plane wave, 16^2 points on [0, 2 pi)^2, t in [0, 4], fixed steps\n");
  std::printf("%8s %12s %8s\n", "dt", "max error", "order");
  const PeriodicBox box(0.0, 2 * M_PI, 16, 0.0, 2 * M_PI, 16);
  const FieldSystem system = named("lambda_omega");
  double previous = 0.0;
  for (const double dt : {0.4, 0.2, 0.1, 0.05, 0.025}) {
    SystemSolveOptions options;
    options.t_end = 4.0;
    options.output_dt = 4.0;
    options.dt = dt;
    options.tolerance = 0.0;
    const double error = final_error(solve_field_system(box, system, plane_wave(box, 0.0), options),
                                     plane_wave(box, 4.0));
    if (previous > 0.0)
      std::printf("%8.3f %12.3e %8.2f\n", dt, error, std::log2(previous / error));
    else
      std::printf("%8.3f %12.3e %8s\n", dt, error, "");
    previous = error;
  }
}

/// Seconds of a fixed-step solve of the plane wave on n^2 points over `steps` steps of 0.01.
double plane_wave_seconds(const PeriodicBox& box, std::int64_t steps, double& error) {
  SystemSolveOptions options;
  options.t_end = 0.01 * static_cast<double>(steps);
  options.output_dt = options.t_end;
  options.dt = 0.01;
  options.tolerance = 0.0;
  const std::vector<double> u0 = plane_wave(box, 0.0);
  const bhpm::util::Stopwatch clock;
  const SystemSolution solution = solve_field_system(box, named("lambda_omega"), u0, options);
  const double seconds = clock.seconds();
  error = final_error(solution, plane_wave(box, options.t_end));
  return seconds;
}

void step_cost_against_points() {
  std::printf(
      "\nlambda-omega plane wave on n^2 points, fixed steps of 0.01: a step (the difference\n"
      "of 41 and 21 steps, over 20, after a warm-up solve) and the rest of a 21-step solve\n"
      "(the coefficients of one step size, the eigenvectors of L(k), the set-up)\n");
  std::printf("%6s %10s %16s %14s %22s\n", "n", "ms/step", "set-up ms", "max error",
              "ns/(point log2 points)");
  for (const std::int64_t n : {64, 128, 256, 512}) {
    const PeriodicBox box(0.0, 2 * M_PI, n, 0.0, 2 * M_PI, n);
    double error = 0.0;
    plane_wave_seconds(box, 21, error);  // warm-up: the allocator's first large blocks fault in
    const double fewer = plane_wave_seconds(box, 21, error);
    const double more = plane_wave_seconds(box, 41, error);
    const double per_step = (more - fewer) / 20.0;
    const double points = static_cast<double>(n * n);
    std::printf("%6lld %10.2f %16.1f %14.3e %22.2f\n", static_cast<long long>(n), 1e3 * per_step,
                1e3 * (fewer - 21 * per_step), error,
                1e9 * per_step / (points * std::log2(points)));
    if (n == 256)
      bhpm::bench::print_figure("system_solve 2-D step 256^2", 1e3 * per_step, "ms",
                                formatted("max error %.2e after 41 steps", error),
                                "lambda-omega, two fields, coefficients apart, 1 thread");
  }
}

}  // namespace

int main() {
  bhpm::cli::configure_process();
  std::printf("load average %.2f\n\n", bhpm::bench::load_average());
  soliton_against_tolerance();
  plane_wave_order();
  step_cost_against_points();
  return 0;
}
