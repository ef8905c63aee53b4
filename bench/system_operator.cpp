/// A system's operator learned from simulated measurements, end to end in the library
/// (docs/systems.md, "Learning a system"): two experiments of NLS (two fields on a line) or
/// of the lambda-omega system (two fields on a 2-D box) are simulated and measured at 4096
/// points each without noise; pipeline::train_system fits leaves of (x[, y], t) with two
/// outputs (Adam, minibatches of 1024, the rate annealed from 1e-2 to 1e-5) and one exact GP
/// per field on 512 of the leaves' rows (300 Adam steps). The leaves' Taylor-mode partials
/// to order 2 and u_t are scored against the exact ones (spectral partials of the solution
/// grids, the system's right-hand side) at 20000 grid points of the training experiments,
/// and each root against the true operator there. Prints the relative L2 error of each
/// partial, each root's relative RMSE and the seconds; figure lines for the leaves' u_t and
/// the roots.
///
/// Usage: system_operator [nls|lambda_omega] [LEAF_ITERATIONS (default 15000)]

#include <ATen/ATen.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "figure_line.h"
#include "load_average.h"
#include "nn/taylor_forward.h"
#include "pde/system_experiment_set.h"
#include "pipeline/system_scoring.h"
#include "pipeline/trained_system.h"

using namespace bhpm;
using bench::formatted;

namespace {

constexpr int kOrder = 2;

config::SystemConfig make_case(const std::string& name, std::int64_t iterations) {
  config::SystemConfig c;
  pde::FieldSystemOptions options;
  options.name = name;
  c.system = pde::make_field_system(options);
  const bool two = c.system.dimensions == 2;
  c.x_min = c.y_min = -10.0;
  c.x_max = c.y_max = 10.0;
  c.points = two ? 48 : 128;
  c.points_y = two ? 48 : 1;
  c.train_experiments = 2;
  pde::SystemSetOptions& set = c.sets;
  set.experiments = 2;
  set.seed = 1;
  set.initial_condition.gp =
      two ? pde::PeriodicGpOptions{1.0, 0.5} : pde::PeriodicGpOptions{0.5, 1.0};
  set.measurements.n_st = 4096;
  set.solve.t_end = 2.0;
  set.solve.output_dt = two ? 0.25 : 0.05;
  config::SystemLearningConfig& learning = c.learning;
  learning.leaves.network.hidden_layers = 4;
  learning.leaves.network.width = 48;
  learning.leaves.network.first_omega = 10.0;
  learning.leaf_training.iterations = iterations;
  learning.leaf_training.learning_rate = 1e-2;
  learning.leaf_training.final_learning_rate = 1e-5;
  learning.leaf_training.batch_size = 1024;
  learning.leaf_training.report_every = std::max<std::int64_t>(1, iterations / 5);
  learning.order = kOrder;
  learning.root_training.iterations = 300;
  learning.root_training.points = 512;
  return c;
}

double relative_l2(const at::Tensor& a, const at::Tensor& b) {
  return ((a - b).square().sum() / b.square().sum()).sqrt().item<double>();
}

/// The leaves' partials [N, q R] and u_t [N, q] at the truth's points.
std::pair<at::Tensor, at::Tensor> leaves_at(const pipeline::TrainedSystem& trained,
                                            const pipeline::SystemOperatorTruth& truth) {
  const std::int64_t leaves = static_cast<std::int64_t>(trained.boxes.size());
  const auto per_leaf = [&](const at::Tensor& values) {
    return values.defined() ? values.view({leaves, -1}) : values;
  };
  const at::NoGradGuard no_grad;
  const nn::LeafPartials p =
      nn::taylor_partials(trained.leaves->network(), per_leaf(truth.x), per_leaf(truth.y),
                          per_leaf(truth.t), trained.boxes, kOrder);
  const at::Tensor v = p.values.permute({1, 2, 3, 0});  // [L, P, q, R]
  return {v.reshape({v.size(0) * v.size(1), -1}), p.u_t.reshape({-1, p.u_t.size(2)})};
}

}  // namespace

int main(int argc, char** argv) {
  cli::configure_process();
  const std::string name = argc > 1 ? argv[1] : "nls";
  const std::int64_t iterations = argc > 2 ? std::stoll(argv[2]) : 15000;
  std::printf("load average %.2f; %s, %lld leaf iterations\n", bench::load_average(), name.c_str(),
              static_cast<long long>(iterations));
  const config::SystemConfig c = make_case(name, iterations);
  const pde::PeriodicBox box = c.box();
  const pde::SystemExperimentSet set = pde::simulate_system_set(box, c.system, c.sets);
  const model::SystemLeafData data = pipeline::system_leaf_data(set, box, 0, 0, "bench");
  const pipeline::TrainedSystem trained =
      pipeline::train_system(c, data, [](const model::TrainingProgress& p) {
        std::printf("  leaves %lld: nll %.4f\n", static_cast<long long>(p.iteration),
                    p.terms.front().second);
      });

  const pipeline::SystemOperatorTruth truth =
      pipeline::system_operator_truth(c.system, box, set, kOrder, 20000, 10);
  const auto [leaf_v, leaf_u_t] = leaves_at(trained, truth);
  std::printf("\nleaves against the exact partials (relative L2 at %lld grid points; %.1f s)\n",
              static_cast<long long>(truth.u_t.size(0)), trained.leaf_seconds);
  const std::vector<pde::Partial> partials = c.system.expression_partials(kOrder);
  for (std::size_t column = 0; column < partials.size(); ++column) {
    const auto i = static_cast<std::int64_t>(column);
    std::printf("  %-6s %.3e\n", c.system.name_of(partials[column]).c_str(),
                relative_l2(leaf_v.select(1, i), truth.inputs.select(1, i)));
  }
  double worst_u_t = 0.0;
  for (std::int64_t f = 0; f < c.system.size(); ++f) {
    const double error = relative_l2(leaf_u_t.select(1, f), truth.u_t.select(1, f));
    worst_u_t = std::max(worst_u_t, error);
    std::printf("  %s_t   %.3e\n", c.system.fields[static_cast<std::size_t>(f)].c_str(), error);
  }
  bench::print_figure("system_operator " + name + " leaves' u_t", worst_u_t, "relative L2",
                      formatted("%lld iterations, %.0f s", static_cast<long long>(iterations),
                                trained.leaf_seconds),
                      "2 experiments x 4096 noise-free points, worst field");

  std::printf("\nroots (%lld leaf rows, %.1f s) against the true operator\n",
              static_cast<long long>(trained.rows.inputs.size(0)), trained.root_seconds);
  double worst_root = 0.0;
  for (const auto& [field, metrics] : pipeline::score_system_roots(trained, truth, false)) {
    worst_root = std::max(worst_root, metrics.relative_rmse);
    std::printf("  f_%s   relative RMSE %.3e, 95 %% coverage %.3f\n", field.c_str(),
                metrics.relative_rmse, metrics.coverage.back().second);
  }
  bench::print_figure("system_operator " + name + " roots", worst_root, "relative RMSE",
                      "the true operator at exact partials", "one exact GP per field, worst field");
  return 0;
}
