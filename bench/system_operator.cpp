/// A system's operator learned from simulated measurements, end to end in the library
/// (docs/systems.md): two experiments of NLS (two fields on a line) or of the lambda-omega
/// system (two fields on a 2-D box) are simulated and measured at 4096 points each without
/// noise; leaves of (x[, y], t) with two outputs are fitted to them (Adam, minibatches of
/// 1024, the rate annealed from 1e-3 to 1e-4); their Taylor-mode partials to order 2 and
/// u_t are scored against the exact ones (spectral partials of the solution grids, the
/// system's right-hand side) at the grid points of every fourth stored time; one exact GP
/// per field is trained on 512 of the leaves' rows (300 Adam steps) and scored against the
/// true operator at 2000 grid points (the exact partials in, the exact u_t out). Prints the
/// relative L2 error of each partial, each root's relative RMSE and the seconds; figure
/// lines for the leaves' u_t and the roots.
///
/// Usage: system_operator [nls|lambda_omega] [LEAF_ITERATIONS (default 15000)]

#include <ATen/ATen.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "load_average.h"
#include "model/system_leaves.h"
#include "model/system_roots.h"
#include "nn/taylor_forward.h"
#include "pde/box_partials.h"
#include "pde/field_system.h"
#include "pde/system_etdrk4.h"
#include "pde/system_experiment_set.h"
#include "util/random.h"
#include "util/stopwatch.h"

using namespace bhpm;
using bench::formatted;

namespace {

constexpr int kOrder = 2;

struct Case {
  pde::FieldSystem system;
  pde::PeriodicBox box;
  pde::SystemSetOptions set;
};

Case make_case(const std::string& name) {
  pde::FieldSystemOptions options;
  options.name = name;
  const pde::FieldSystem system = pde::make_field_system(options);
  const bool two = system.dimensions == 2;
  pde::SystemSetOptions set;
  set.experiments = 2;
  set.seed = 1;
  set.initial_condition.gp =
      two ? pde::PeriodicGpOptions{1.0, 0.5} : pde::PeriodicGpOptions{0.5, 1.0};
  set.measurements.n_st = 4096;
  set.solve.t_end = 2.0;
  set.solve.output_dt = two ? 0.25 : 0.05;
  const pde::PeriodicBox box =
      two ? pde::PeriodicBox(-10.0, 10.0, 48, -10.0, 10.0, 48) : pde::PeriodicBox(-10.0, 10.0, 128);
  return {system, box, set};
}

/// [E, P] of a set's per-experiment sample values.
at::Tensor per_experiment(const std::vector<double>& values, std::int64_t experiments) {
  return at::tensor(values, at::kDouble).view({experiments, -1});
}

model::SystemLeafData leaf_data(const Case& c, const pde::SystemExperimentSet& set) {
  const std::int64_t e = set.experiments, q = c.system.size();
  model::SystemLeafData data;
  data.x = per_experiment(set.sample_x, e);
  data.t = per_experiment(set.sample_t, e);
  if (c.system.dimensions == 2) data.y = per_experiment(set.sample_y, e);
  data.u =
      at::tensor(set.sample_u, at::kDouble).view({e, q, set.n_st}).permute({0, 2, 1}).contiguous();
  data.boxes.assign(static_cast<std::size_t>(e),
                    nn::DomainBox{c.box.x_min(), c.box.x_max(), 0.0, c.set.solve.t_end,
                                  c.box.y_min(), c.box.y_max()});
  return data;
}

/// Leaves' partials [R, L, P, q] -> root inputs [L P, q R] (field by field, each field's
/// partials in pde::FieldSystem::expression_partials' order) and u_t [L P, q].
model::SystemRootData root_rows(const nn::LeafPartials& partials) {
  const at::Tensor v = partials.values.permute({1, 2, 3, 0});  // [L, P, q, R]
  return {v.reshape({v.size(0) * v.size(1), -1}).contiguous(),
          partials.u_t.reshape({-1, partials.u_t.size(2)}).contiguous()};
}

double relative_l2(const at::Tensor& a, const at::Tensor& b) {
  return ((a - b).square().sum() / b.square().sum()).sqrt().item<double>();
}

}  // namespace

int main(int argc, char** argv) {
  cli::configure_process();
  const std::string name = argc > 1 ? argv[1] : "nls";
  const std::int64_t iterations = argc > 2 ? std::stoll(argv[2]) : 15000;
  std::printf("load average %.2f; %s, %lld leaf iterations\n", bench::load_average(), name.c_str(),
              static_cast<long long>(iterations));
  const Case c = make_case(name);
  const std::int64_t q = c.system.size(), points = c.box.points();
  const pde::SystemExperimentSet set = pde::simulate_system_set(c.box, c.system, c.set);
  const model::SystemLeafData data = leaf_data(c, set);

  nn::SineMlpOptions network;
  network.leaves = set.experiments;
  network.space_dimensions = c.system.dimensions;
  network.outputs = q;
  network.hidden_layers = 4;
  network.width = 48;
  network.seed = 3;
  model::SystemLeaves leaves(network, 0.1);
  model::SystemLeafTrainingOptions training;
  training.iterations = iterations;
  training.learning_rate = 1e-3;
  training.final_learning_rate = 1e-4;
  training.batch_size = 1024;
  training.report_every = std::max<std::int64_t>(1, iterations / 5);
  const util::Stopwatch leaf_clock;
  const model::PhaseResult fitted =
      model::train_system_leaves(*leaves, data, training, [](const model::TrainingProgress& p) {
        std::printf("  leaves %lld: nll %.4f\n", static_cast<long long>(p.iteration),
                    p.terms.front().second);
      });
  const double leaf_seconds = leaf_clock.seconds();

  // The truth on the grid of every fourth stored time, both experiments.
  const std::vector<pde::Partial> partials = c.system.expression_partials(kOrder);
  const std::int64_t rows = static_cast<std::int64_t>(partials.size()) / q;
  pde::SystemEtdrk4 stepper(c.box, c.system);
  std::vector<at::Tensor> true_v, true_u_t, grid_x, grid_y, grid_t;
  const std::vector<double> xs = c.box.x(), ys = c.box.y();
  const std::int64_t times = static_cast<std::int64_t>(set.t.size());
  for (std::int64_t e = 0; e < set.experiments; ++e) {
    std::vector<double> gx, gy, gt;
    std::vector<at::Tensor> v_e, u_t_e;
    for (std::int64_t k = 0; k < times; k += 4) {
      const auto begin = set.u.begin() + (e * times + k) * q * points;
      const std::vector<double> u(begin, begin + q * points);
      v_e.push_back(at::tensor(pde::box_partials(c.box, u, partials), at::kDouble)
                        .view({q * rows, points})
                        .t());
      u_t_e.push_back(at::tensor(stepper.time_derivative(u), at::kDouble).view({q, points}).t());
      for (std::int64_t p = 0; p < points; ++p) {
        gx.push_back(xs[static_cast<std::size_t>(p % c.box.nx())]);
        gy.push_back(ys[static_cast<std::size_t>(p / c.box.nx())]);
        gt.push_back(set.t[static_cast<std::size_t>(k)]);
      }
    }
    true_v.push_back(at::cat(v_e));
    true_u_t.push_back(at::cat(u_t_e));
    grid_x.push_back(at::tensor(gx, at::kDouble));
    grid_y.push_back(at::tensor(gy, at::kDouble));
    grid_t.push_back(at::tensor(gt, at::kDouble));
  }
  const at::Tensor v_true = at::cat(true_v), u_t_true = at::cat(true_u_t);  // [N, q R], [N, q]
  const bool two = c.system.dimensions == 2;
  model::SystemRootData leaf_on_grid;
  {
    const at::NoGradGuard no_grad;  // scoring: no graph to the leaves
    leaf_on_grid = root_rows(nn::taylor_partials(leaves->network(), at::stack(grid_x),
                                                 two ? at::stack(grid_y) : at::Tensor(),
                                                 at::stack(grid_t), data.boxes, kOrder));
  }
  std::printf(
      "\nleaves against the exact partials (relative L2 over the grids; %.1f s, final nll %.4f)\n",
      leaf_seconds, fitted.final_loss);
  for (std::int64_t column = 0; column < q * rows; ++column)
    std::printf("  %-6s %.3e\n",
                c.system.name_of(partials[static_cast<std::size_t>(column)]).c_str(),
                relative_l2(leaf_on_grid.inputs.select(1, column), v_true.select(1, column)));
  double worst_u_t = 0.0;
  for (std::int64_t f = 0; f < q; ++f) {
    const double error = relative_l2(leaf_on_grid.targets.select(1, f), u_t_true.select(1, f));
    worst_u_t = std::max(worst_u_t, error);
    std::printf("  %s_t   %.3e\n", c.system.fields[static_cast<std::size_t>(f)].c_str(), error);
  }
  bench::print_figure(
      "system_operator " + name + " leaves' u_t", worst_u_t, "relative L2",
      formatted("%lld iterations, %.0f s", static_cast<long long>(iterations), leaf_seconds),
      "2 experiments x 4096 noise-free points, worst field");

  // One root per field on 512 of the leaves' rows at the measurement points.
  model::SystemRootData leaf_rows;
  {
    const at::NoGradGuard no_grad;
    leaf_rows = root_rows(
        nn::taylor_partials(leaves->network(), data.x, data.y, data.t, data.boxes, kOrder));
  }
  const std::vector<std::int64_t> chosen =
      util::Rng(9).sample_without_replacement(leaf_rows.inputs.size(0), 512);
  const at::Tensor pick = at::tensor(chosen, at::kLong);
  model::ExactRootTrainingOptions root_training;
  root_training.iterations = 300;
  root_training.report_every = 300;
  const util::Stopwatch root_clock;
  const auto roots = model::train_system_roots(
      {leaf_rows.inputs.index_select(0, pick), leaf_rows.targets.index_select(0, pick)}, "rbf",
      root_training);
  const at::Tensor test =
      at::tensor(util::Rng(10).sample_without_replacement(v_true.size(0), 2000), at::kLong);
  std::printf("\nroots (512 leaf rows, %.1f s) against the true operator at 2000 grid points\n",
              root_clock.seconds());
  double worst_root = 0.0;
  for (std::int64_t f = 0; f < q; ++f) {
    const at::Tensor truth = u_t_true.index_select(0, test).select(1, f);
    const at::Tensor mean =
        roots[static_cast<std::size_t>(f)]->marginals(v_true.index_select(0, test)).mean;
    const double error = relative_l2(mean, truth);
    worst_root = std::max(worst_root, error);
    std::printf("  f_%s   relative L2 %.3e\n", c.system.fields[static_cast<std::size_t>(f)].c_str(),
                error);
  }
  bench::print_figure("system_operator " + name + " roots", worst_root, "relative L2",
                      "the true operator at exact partials", "one exact GP per field, worst field");
  return 0;
}
