/// How well the last-layer Laplace approximation of the leaves (model/leaf_laplace.h)
/// predicts their actual errors, on a trained run whose dataset has a known equation.
/// For every training experiment and each component of the root row z = (u, u_x, ...,
/// d^K u/dx^K, u_t) at the measurements it prints the RMS of the actual error (leaf minus
/// the exact value: the clean solution, its spectral derivatives and the true operator),
/// the RMS of the predicted standard deviation sqrt(Cov(z)_ss), the RMS z-score and the
/// fraction of errors inside the 95 % interval. Then the same for the root's residual
/// caused by the leaves' errors to first order, r = e_{u_t} - grad m(v) . e_v (m the root's
/// posterior mean), against its predicted variance a^T Cov(z) a, a = (-grad m, 1), next to
/// the root's sigma_f: whether the leaves' uncertainty could explain the root's noise.
///
/// Usage: leaf_uncertainty RUN_DIR [DATA.h5 = RUN_DIR/data.h5] [prior_variance = 1]

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "cli/process_setup.h"
#include "config/dataset_equation.h"
#include "eval/held_out_operator_data.h"
#include "gp/noisy_inputs.h"
#include "model/leaf_laplace.h"
#include "model/root_data.h"
#include "pde/nonlinear_term.h"
#include "trained_run.h"

using namespace bhpm;

namespace {

/// The exact root rows z [L, P, K + 2] at the measurements of the training set.
at::Tensor exact_rows(const pde::ExperimentSet& set, const pde::Equation& equation, int order,
                      std::int64_t leaves, std::int64_t points) {
  const eval::OperatorTestData exact = eval::held_out_operator_data(set, equation, order);
  const at::Tensor rows = at::cat({exact.inputs, exact.target.unsqueeze(1)}, 1);
  const std::int64_t per_experiment = set.u.size(1) * set.u.size(2);
  const at::Tensor offsets = at::arange(leaves, at::kLong).unsqueeze(1) * per_experiment;
  const at::Tensor index = set.sample_index.narrow(0, 0, leaves).narrow(1, 0, points) + offsets;
  return rows.index_select(0, index.reshape({-1})).view({leaves, points, -1});
}

void print_row(const std::string& name, const at::Tensor& error, const at::Tensor& variance) {
  const double rms_error = error.pow(2).mean().sqrt().item<double>();
  const double rms_sd = variance.mean().sqrt().item<double>();
  const double z = (error.pow(2) / variance).mean().sqrt().item<double>();
  const double inside =
      (error.abs() <= 1.96 * variance.sqrt()).to(at::kDouble).mean().item<double>();
  std::printf("  %-8s error %.3e   predicted sd %.3e   z %9.3g   inside 95%% %.3f\n", name.c_str(),
              rms_error, rms_sd, z, inside);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: leaf_uncertainty RUN_DIR [DATA.h5] [prior_variance]\n");
    return 2;
  }
  cli::configure_process();
  cli::use_threads(0);
  const std::string run_dir = argv[1];
  const std::string data_path = argc > 2 ? argv[2] : run_dir + "/data.h5";
  const double prior_variance = argc > 3 ? std::stod(argv[3]) : 1.0;

  const bench::TrainedRun run = bench::load_trained_run(run_dir, data_path);
  const pde::ExperimentSet& set = run.set;
  const model::LeafData& data = run.data;
  const std::int64_t leaves = set.sample_u.size(0), points = set.sample_u.size(1);
  const model::BhpmModelImpl& bhpm = *run.trained.model;
  const int order = bhpm.order();

  const at::Tensor covariance = model::last_layer_covariance(bhpm.leaves(), data, prior_variance);
  const at::Tensor row_covariance =
      model::root_row_covariance(bhpm.leaves(), covariance, data, order);  // [L, P, S, S]
  const model::RootData leaf_rows = model::root_data_detached(bhpm.leaves(), data, order);
  const at::Tensor z_leaf =
      at::cat({leaf_rows.inputs, leaf_rows.targets.unsqueeze(1)}, 1).view({leaves, points, -1});
  const at::Tensor error =
      z_leaf - exact_rows(set, config::read_dataset_equation(data_path), order, leaves, points);

  const at::Tensor gradient = gp::posterior_mean_gradient(bhpm.root(), leaf_rows.inputs);
  const at::Tensor a = gp::noisy_input_coefficients(gradient).view({leaves, points, -1});
  const at::Tensor residual = (a * error).sum(2);
  const at::Tensor residual_variance =
      gp::first_order_input_noise_variance(
          gradient, row_covariance.reshape({leaves * points, order + 2, order + 2}))
          .view({leaves, points});
  const double sigma_f = std::sqrt(bhpm.root().likelihood()->variance().item<double>());

  std::printf("last-layer Laplace of %s (prior variance %g), %lld measurements per leaf\n",
              run_dir.c_str(), prior_variance, static_cast<long long>(points));
  const at::Tensor sigma = bhpm.leaves().noise_scale().detach();
  for (std::int64_t i = 0; i < leaves; ++i) {
    std::printf("leaf %lld (sigma %.3e)\n", static_cast<long long>(i), sigma[i].item<double>());
    for (int s = 0; s <= order + 1; ++s)
      print_row(s <= order ? pde::derivative_name(s) : std::string("u_t"), error[i].select(1, s),
                row_covariance[i].select(1, s).select(1, s));
    print_row("residual", residual[i], residual_variance[i]);
  }
  std::printf("root sigma_f %.3e; RMS residual of the leaves' errors %.3e, predicted %.3e\n",
              sigma_f, residual.pow(2).mean().sqrt().item<double>(),
              residual_variance.mean().sqrt().item<double>());
  return 0;
}
