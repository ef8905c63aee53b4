/// The bounded-domain solver (docs/boundary-conditions.md) against exact solutions: the
/// maximum error over all output times and points, seconds and CVODE's steps, against the
/// number of Chebyshev intervals n and the tolerance (relative = absolute), for a viscous
/// Burgers front with Dirichlet conditions and a KdV soliton with its three conditions, both
/// taken from the exact solution as it moves. Then 32 Burgers fronts of different amplitudes,
/// each its own CVODE integration, spread over 1 and over 2 threads. Figure lines
/// (bench/figure_line.h): the KdV soliton at n = 128 and the default tolerance 1e-8, and the
/// 32-member ensemble on 2 threads, each with its error.
///
/// Usage: bounded_solve

#include "pde/bounded_solve.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "load_average.h"
#include "pde/boundary_conditions.h"
#include "pde/chebyshev_grid.h"
#include "pde/equation.h"
#include "pde/exact_solutions.h"
#include "util/stopwatch.h"

using namespace bhpm::pde;
using bhpm::bench::formatted;

namespace {

/// d^order u/dx^order of member b's exact solution at (x, t).
using Exact = std::function<double(std::int64_t b, int order, double x, double t)>;

struct Problem {
  std::string name;
  Equation equation;
  double a, b, t_end, output_dt;
  std::vector<int> left_orders, right_orders;  ///< the derivative each condition fixes
  Exact exact;
};

Equation named(const std::string& name) {
  EquationOptions options;
  options.name = name;
  return make_equation(options);
}

BoundaryConditions conditions_of(const Problem& p, std::int64_t member) {
  BoundaryConditions conditions;
  for (int order : p.left_orders)
    conditions.left.push_back(BoundaryCondition::derivative(
        order, [=](double t) { return p.exact(member, order, p.a, t); }, "exact"));
  for (int order : p.right_orders)
    conditions.right.push_back(BoundaryCondition::derivative(
        order, [=](double t) { return p.exact(member, order, p.b, t); }, "exact"));
  return conditions;
}

at::Tensor exact_snapshots(const Problem& p, std::int64_t member, const ChebyshevGrid& grid,
                           const at::Tensor& times) {
  at::Tensor u = at::empty({times.size(0), grid.points()}, at::kDouble);
  for (std::int64_t k = 0; k < times.size(0); ++k)
    for (std::int64_t j = 0; j < grid.points(); ++j)
      u[k][j] = p.exact(member, 0, grid.x()[j].item<double>(), times[k].item<double>());
  return u;
}

struct Result {
  double error, seconds;
  std::int64_t steps;
};

/// One member (member 0 of p.exact) solved at n and tolerance.
Result solve_once(const Problem& p, std::int64_t n, double tolerance) {
  const ChebyshevGrid grid(p.a, p.b, n);
  BoundedSolveOptions options;
  options.t_end = p.t_end;
  options.output_dt = p.output_dt;
  options.relative_tolerance = options.absolute_tolerance = tolerance;
  const at::Tensor u0 = exact_snapshots(p, 0, grid, at::zeros({1}, at::kDouble))[0];
  const bhpm::util::Stopwatch stopwatch;
  const Solution s = solve_bounded(grid, p.equation, conditions_of(p, 0), u0, options);
  const double seconds = stopwatch.seconds();
  const double error = (s.u[0] - exact_snapshots(p, 0, grid, s.t)).abs().max().item<double>();
  return {error, seconds, s.steps};
}

void table(const Problem& p, const std::vector<std::int64_t>& sizes,
           const std::vector<double>& tolerances) {
  std::printf("\n%s on [%g, %g], t in [0, %g]\n%6s %10s %12s %10s %8s\n", p.name.c_str(), p.a, p.b,
              p.t_end, "n", "tolerance", "max error", "seconds", "steps");
  for (std::int64_t n : sizes)
    for (double tolerance : tolerances) {
      const Result r = solve_once(p, n, tolerance);
      std::printf("%6lld %10.0e %12.3e %10.4f %8lld\n", static_cast<long long>(n), tolerance,
                  r.error, r.seconds, static_cast<long long>(r.steps));
    }
}

}  // namespace

/// Viscous Burgers fronts u = 0.2 - A tanh(A (x - 0.2 t) / 0.2) (nu = 0.1) on [-2, 2], t in
/// [0, 2], Dirichlet conditions at both ends; member b has A = amplitude(b).
Problem burgers_fronts(const std::string& name,
                       const std::function<double(std::int64_t)>& amplitude) {
  Problem p;
  p.name = name;
  p.equation = named("burgers");
  p.a = -2.0;
  p.b = 2.0;
  p.t_end = 2.0;
  p.output_dt = 0.5;
  p.left_orders = {0};
  p.right_orders = {0};
  p.exact = [amplitude](std::int64_t b, int order, double x, double t) {
    return viscous_burgers_front(x, t, 0.1, amplitude(b), 0.2, order);
  };
  return p;
}

/// The KdV soliton 3 sech^2((x - t + 4) / 2) on [-15, 15], t in [0, 4]: u at the left end,
/// u and u_x at the right.
Problem kdv_soliton() {
  Problem p;
  p.name = "KdV soliton, c = 1 from x0 = -4, u at the left, u and u_x at the right";
  p.equation = named("kdv");
  p.a = -15.0;
  p.b = 15.0;
  p.t_end = 4.0;
  p.output_dt = 1.0;
  p.left_orders = {0};
  p.right_orders = {0, 1};
  p.exact = [](std::int64_t, int order, double x, double t) {
    return kdv_soliton_on_line(x, t, 1.0, -4.0, order);
  };
  return p;
}

int main() {
  bhpm::cli::configure_process();
  const Problem burgers = burgers_fronts(
      "viscous Burgers front, u = 0.2 - 0.5 tanh(2.5 (x - 0.2 t)), Dirichlet at both ends",
      [](std::int64_t) { return 0.5; });
  const Problem kdv = kdv_soliton();
  std::printf("load average before: %.2f, %d threads\n", bhpm::bench::load_average(),
              at::get_num_threads());
  table(burgers, {24, 48, 64}, {1e-6, 1e-8, 1e-10});
  table(kdv, {64, 96, 128}, {1e-6, 1e-8, 1e-10});
  const Result headline = solve_once(kdv, 128, 1e-8);
  bhpm::bench::print_figure(
      "bounded solve, KdV soliton, n = 128, tolerance 1e-8 (the default)", headline.seconds, "s",
      formatted("max error %.2e against the exact soliton", headline.error),
      formatted("%lld CVODE steps, t in [0, 4], 1 member", static_cast<long long>(headline.steps)));

  // 32 fronts of amplitudes 0.3 .. 0.6.
  const std::int64_t members = 32;
  const Problem ensemble = burgers_fronts("", [=](std::int64_t b) {
    return 0.3 + 0.3 * static_cast<double>(b) / static_cast<double>(members - 1);
  });
  const ChebyshevGrid grid(-2.0, 2.0, 48);
  // One condition function per member: member b's fronts at the ends.
  std::vector<at::Tensor> starts;
  for (std::int64_t b = 0; b < members; ++b)
    starts.push_back(exact_snapshots(ensemble, b, grid, at::zeros({1}, at::kDouble))[0]);
  BoundedSolveOptions options;
  options.t_end = 2.0;
  options.output_dt = 0.5;
  options.relative_tolerance = options.absolute_tolerance = 1e-8;
  // The members differ in their boundary values, and a batch has one set of conditions: each
  // member is solved as a batch of one, the members spread over the threads as solve_bounded
  // spreads a batch's.
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    std::vector<double> errors(members);
    const bhpm::util::Stopwatch stopwatch;
    at::parallel_for(0, members, 1, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; ++b) {
        const Solution s =
            solve_bounded(grid, ensemble.equation, conditions_of(ensemble, b), starts[b], options);
        errors[b] = (s.u[0] - exact_snapshots(ensemble, b, grid, s.t)).abs().max().item<double>();
      }
    });
    const double seconds = stopwatch.seconds();
    double worst = 0;
    for (double e : errors) worst = std::max(worst, e);
    std::printf(
        "\n32 Burgers fronts (amplitudes 0.3 .. 0.6), n = 48, tolerance 1e-8, %s: %.3f s, max "
        "error %.2e\n",
        bhpm::bench::threads(threads).c_str(), seconds, worst);
    if (threads == 2)
      bhpm::bench::print_figure("bounded solve, 32 Burgers fronts, n = 48, tolerance 1e-8", seconds,
                                "s", formatted("max error %.2e against the exact fronts", worst),
                                "t in [0, 2], " + bhpm::bench::threads(threads));
  }
  return 0;
}
