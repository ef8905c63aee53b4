/// Time of one PINN iteration (solve/pinn_solver.h, paper appendix C) at the paper's batch
/// sizes: per member 4096 collocation points, 256 boundary times (both ends), 256 initial
/// points; default 6 x 64 sine MLP (float32 hidden layers, nn/sine_mlp.h), ATen threads as
/// asked (0: every core).
/// An iteration is the whole solver step: drawing the points, the Taylor-mode pass
/// (u, ..., d^K u/dx^K, u_t), the operator, the loss, backward, the divergence checks and
/// Adam. Operators: K = 2 Burgers -u u_x + 0.1 u_xx and K = 3 KdV -u u_x - u_xxx, the same
/// for every member (a GP operator sample costs more per evaluation than this polynomial).
/// Timed through the solver's progress callback (reported every iteration): the median
/// interval between reports, after warm-up. Projected: ms / S per member, times the
/// paper's 5e4 (Burgers) or 3e5 (KdV) iterations. With 2 threads on a 2-core machine that
/// is otherwise busy (load average printed first), OpenMP's waits make the figures many
/// times worse than 1 thread's. Measured figures: docs/predictions.md, "Speed of predictions".
/// Figure lines (bench/figure_line.h): each row's iteration, with the members' mean loss at
/// the last iteration.
///
/// Usage: pinn_step [iterations=12] [members=4] [threads=0]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "gp/function_samples.h"
#include "load_average.h"
#include "solve/pinn_solver.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

/// f(v) = -v_0 v_1 + c v_K for every member: Burgers (K = 2, c = 0.1), KdV (K = 3, c = -1).
class PolynomialOperator final : public gp::FunctionSamples {
 public:
  PolynomialOperator(std::int64_t count, int order, double coefficient)
      : count_(count), order_(order), coefficient_(coefficient) {}
  std::int64_t count() const override { return count_; }
  std::int64_t dimensions() const override { return order_ + 1; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    return coefficient_ * v.select(2, order_) - v.select(2, 0) * v.select(2, 1);
  }

 private:
  std::int64_t count_;
  int order_;
  double coefficient_;
};

/// Median milliseconds per iteration of a `members`-member solve on [-8, 8] x [0, 10]
/// (3 warm-up iterations discarded); the members' mean loss at the last one into `loss`.
double iteration_ms(const PolynomialOperator& samples, std::int64_t iterations, double& loss) {
  const pde::PeriodicGrid grid(-8.0, 8.0, 64);
  const solve::PinnProblem problem{solve::PinnDomain::periodic(grid),
                                   -at::sin(M_PI * grid.x() / 8.0),
                                   at::linspace(0.0, 10.0, 3, at::kDouble)};
  solve::PinnOptions options;
  options.iterations = iterations + 3;
  std::vector<double> times;
  util::Stopwatch lap;
  solve::solve_pinn_ensemble(
      problem, samples, options,
      [&](std::int64_t iteration, const solve::PinnLoss& losses) {
        if (iteration > 3) times.push_back(1e3 * lap.seconds());
        if (iteration == options.iterations) loss = losses.total.mean().item<double>();
        lap.restart();
      },
      1);
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

void row(const char* name, int order, double coefficient, double paper_iterations,
         std::int64_t members, std::int64_t iterations) {
  double loss = NAN;
  const double ms = iteration_ms(PolynomialOperator(members, order, coefficient), iterations, loss);
  const double per_member = ms / static_cast<double>(members);
  std::printf("%-8s %3d %8lld %14.1f %14.1f %20.2f\n", name, order, static_cast<long long>(members),
              ms, per_member, per_member * paper_iterations / 3.6e6);
  bench::print_figure(
      bench::formatted("PINN iteration, %s (K = %d), %lld %s, %s", name, order,
                       static_cast<long long>(members), members == 1 ? "member" : "members",
                       bench::threads(at::get_num_threads()).c_str()),
      ms, "ms",
      bench::formatted("mean loss %.4g after %lld iterations", loss,
                       static_cast<long long>(iterations + 3)),
      bench::formatted("median of %lld; %.2f h per sample for %.0e iterations",
                       static_cast<long long>(iterations), per_member * paper_iterations / 3.6e6,
                       paper_iterations));
}

}  // namespace

int main(int argc, char** argv) {
  cli::configure_process();
  const std::int64_t iterations = argc > 1 ? std::max(1, std::stoi(argv[1])) : 12;
  const std::int64_t members = argc > 2 ? std::max(1, std::stoi(argv[2])) : 4;
  cli::use_threads(argc > 3 ? std::max(0, std::stoi(argv[3])) : 0);
  std::printf(
      "ATen threads: %d; load average %.2f; double; 6 x 64 sine MLP; per member 4096 "
      "collocation + 2 x 256 boundary + 256 initial points; median of %lld iterations\n\n",
      at::get_num_threads(), bench::load_average(), static_cast<long long>(iterations));
  std::printf("%-8s %3s %8s %14s %14s %20s\n", "operator", "K", "members", "ms/iteration",
              "ms/member-it", "h/sample (paper its)");
  for (const std::int64_t s : {std::int64_t{1}, members}) {
    row("burgers", 2, 0.1, 5e4, s, iterations);
    row("kdv", 3, -1.0, 3e5, s, iterations);
  }
  std::printf("\n(h/sample: per-member time x 5e4 iterations for Burgers, 3e5 for KdV)\n");
  return 0;
}
