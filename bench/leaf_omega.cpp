/// How well one sine-MLP leaf fits a simulated solution, against the frequency scales
/// first_omega / hidden_omega (this is how SineMlpOptions' defaults were chosen).
/// Default Burgers or KdV dataset (one GP initial condition), n_st random grid samples
/// without noise, Adam (lr 1e-3) on the mean squared error of u; then the relative RMSE
/// of u, u_x, u_xx, u_xxx and u_t (Taylor-mode, K = 3) on 4096 other grid points against
/// spectral derivatives and the true operator. Also the initial rms(u_xxx) / rms(u).
///
/// Usage: leaf_omega [equation=burgers|kdv] [iterations=3000] [n_st=2048]

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli/process_setup.h"
#include "nn/sine_mlp.h"
#include "nn/taylor_forward.h"
#include "pde/dataset_defaults.h"
#include "pde/equation.h"
#include "pde/initial_condition.h"
#include "pde/periodic_solve.h"
#include "util/stopwatch.h"

using namespace bhpm;

namespace {

/// Every grid point of one solution, flattened: x, t, u [N]; truth [5, N] holds u, u_x,
/// u_xx, u_xxx and u_t.
struct Samples {
  at::Tensor x, t, u, truth;
  nn::DomainBox box;
};

Samples simulate(const std::string& name) {
  const pde::DatasetDefaults d = pde::dataset_defaults(name);
  const pde::PeriodicGrid grid(d.x_min, d.x_max, d.modes);
  pde::EquationOptions equation;
  equation.name = name;
  pde::InitialConditionOptions ic;
  ic.gp = {d.ic_amplitude, d.ic_length_scale};
  pde::SolveOptions solve;
  solve.t_end = d.t_end;
  solve.output_dt = d.output_dt;
  solve.stepper.dt = d.dt;
  const pde::Solution s =
      pde::solve_periodic(grid, pde::make_equation(equation),
                          pde::make_initial_conditions(grid, ic, 1, 3, "fit"), solve);
  const at::Tensor u = s.u[0];  // [T, n]
  const at::Tensor v = grid.derivatives_from_spectral(grid.to_spectral(u), 3);
  const at::Tensor u_t = name == "kdv" ? -v[0] * v[1] - v[3] : -v[0] * v[1] + 0.1 * v[2];
  Samples out;
  out.x = grid.x().unsqueeze(0).expand_as(u).reshape(-1);
  out.t = s.t.unsqueeze(1).expand_as(u).reshape(-1);
  out.u = u.reshape(-1);
  out.truth = at::cat({v.reshape({4, -1}), u_t.reshape({1, -1})});
  out.box = {d.x_min, d.x_max, 0.0, d.t_end};
  return out;
}

double rms(const at::Tensor& a) { return a.square().mean().sqrt().item<double>(); }

void fit(const Samples& data, const at::Tensor& train, const at::Tensor& test,
         nn::SineMlpOptions options, int iterations) {
  nn::SineMlp net(options);
  const std::vector<nn::DomainBox> box{data.box};
  const at::Tensor x = data.x.index_select(0, train).unsqueeze(0);
  const at::Tensor t = data.t.index_select(0, train).unsqueeze(0);
  const at::Tensor u = data.u.index_select(0, train).unsqueeze(0);
  const at::Tensor x_test = data.x.index_select(0, test).unsqueeze(0);
  const at::Tensor t_test = data.t.index_select(0, test).unsqueeze(0);
  const auto initial = nn::taylor_forward(*net, x_test, t_test, box, 3).u_x_derivatives;
  const double roughness = rms(initial[3]) / rms(initial[0]);
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const util::Stopwatch stopwatch;
  for (int i = 0; i < iterations; ++i) {
    adam.zero_grad();
    (net->forward(x, t, box) - u).square().mean().backward();
    adam.step();
  }
  const double seconds = stopwatch.seconds();
  at::NoGradGuard no_grad;
  const nn::LeafDerivatives d = nn::taylor_forward(*net, x_test, t_test, box, 3);
  const at::Tensor predicted = at::cat({d.u_x_derivatives.select(1, 0), d.u_t});  // [5, P]
  std::printf("%7g %7g %5llu |", options.first_omega, options.hidden_omega,
              static_cast<unsigned long long>(options.seed));
  for (int k = 0; k < 5; ++k) {
    const at::Tensor truth = data.truth[k].index_select(0, test);
    std::printf(" %9.2e", rms(predicted[k] - truth) / rms(truth));
  }
  std::printf(" | %10.3g %6.0f\n", roughness, seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();  // as every bhpm executable (malloc, OpenBLAS threads)
  const std::string name = argc > 1 ? argv[1] : "burgers";
  const int iterations = argc > 2 ? std::stoi(argv[2]) : 3000;
  const std::int64_t n_st = argc > 3 ? std::stoll(argv[3]) : 2048;
  const Samples data = simulate(name);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
  const at::Tensor order = at::randperm(data.x.size(0), gen);
  const at::Tensor train = order.narrow(0, 0, n_st), test = order.narrow(0, n_st, 4096);
  std::printf(
      "%s: %lld training points, %d Adam iterations (lr 1e-3); relative RMSE on 4096 "
      "other grid points\n",
      name.c_str(), static_cast<long long>(n_st), iterations);
  std::printf("%7s %7s %5s | %9s %9s %9s %9s %9s | %10s %6s\n", "omega0", "omega_h", "seed", "u",
              "u_x", "u_xx", "u_xxx", "u_t", "init xxx/u", "s");
  const std::vector<std::pair<double, double>> omegas{{1, 1}, {3, 1}, {10, 1}, {30, 1}, {30, 30}};
  for (const auto& [first, hidden] : omegas)
    for (std::uint64_t seed : {0, 1}) {
      nn::SineMlpOptions options;
      options.first_omega = first;
      options.hidden_omega = hidden;
      options.seed = seed;
      fit(data, train, test, options, iterations);
    }
  return 0;
}
