#include "model/root_gp.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "gp/gaussian_likelihood.h"
#include "gp/kernel_table.h"
#include "gp/linear_mean.h"
#include "model/module_checkpoint.h"
#include "nn/taylor_forward.h"
#include "util/name_list.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::model {

namespace {

/// Least-squares w [D], b of y ~ X w + b, with a tiny ridge so constant inputs are harmless.
std::pair<at::Tensor, double> least_squares_line(const at::Tensor& x, const at::Tensor& y) {
  const at::Tensor design = at::cat({x, at::ones({x.size(0), 1}, x.options())}, 1);
  at::Tensor gram = design.t().mm(design);
  gram.diagonal().add_(1e-10 * (gram.diagonal().max().item<double>() + 1.0));
  const at::Tensor coefficients = at::linalg_solve(gram, design.t().mv(y).unsqueeze(1)).squeeze(1);
  return {coefficients.slice(0, 0, x.size(1)).contiguous(), coefficients[-1].item<double>()};
}

}  // namespace

void validate(const RootOptions& o) {
  const std::string owner = "root";
  util::require_option(o.order >= 0 && o.order <= nn::kMaxOrder, owner, "order",
                       "must be in [0, " + std::to_string(nn::kMaxOrder) + "]",
                       util::option_value(std::int64_t{o.order}));
  util::require_at_least(o.inducing_points, 1, owner, "inducing_points");
  util::require_at_least(o.kmeans_iterations, 0, owner, "kmeans_iterations");
  util::require_listed(o.kernel, gp::kernel_names(), owner, "kernel");
  util::require_listed(o.input_noise, input_noise_names(), owner, "input_noise");
}

const std::vector<std::string>& input_noise_names() {
  static const std::vector<std::string> names{"none", "laplace"};
  return names;
}

std::string root_kernel_name(const io::Checkpoint& checkpoint) {
  const auto stored = checkpoint.strings.find("arch/" + std::string(kRootKernelField));
  return stored == checkpoint.strings.end() ? "rbf" : stored->second;
}

gp::ExactGp make_exact_root(const RootData& data, const std::string& kernel_name) {
  at::NoGradGuard no_grad;
  const at::Tensor x = data.inputs.detach(), y = data.targets.detach();
  const std::int64_t dimensions = x.size(1);
  const auto [weight, bias] = least_squares_line(x, y);
  const double target_variance = std::max(y.var().item<double>(), 1e-300);
  const double floor = 1e-12 * target_variance + 1e-300;
  const double residual_variance = std::max((y - x.mv(weight) - bias).var().item<double>(), floor);

  auto mean = std::make_shared<gp::LinearMeanImpl>(gp::LinearMeanOptions{dimensions});
  mean->set_weight(weight);
  mean->set_bias(bias);
  at::Tensor lengthscales = x.std(0);
  lengthscales = at::where(lengthscales > 1e-12, lengthscales, at::ones_like(lengthscales));
  auto kernel = gp::make_kernel(kernel_name, {lengthscales, residual_variance});
  auto likelihood = std::make_shared<gp::GaussianLikelihoodImpl>(
      gp::GaussianLikelihoodOptions{std::max(residual_variance / 100.0, floor), 1e-8});
  return gp::ExactGp(mean, kernel, likelihood, x, y);
}

gp::SparseVariationalGp make_sparse_root(const gp::ExactGpImpl& exact, const at::Tensor& all_inputs,
                                         const RootOptions& options, std::uint64_t seed) {
  validate(options);
  const gp::KMeansOptions clustering{options.inducing_points, options.kmeans_iterations,
                                     util::derive_seed(seed, "inducing", 0)};
  return gp::sparse_gp_from_exact(exact, all_inputs.detach(), clustering,
                                  gp::SparseVariationalGpOptions{options.train_inducing_inputs},
                                  exact.kernel()->input_scales().detach());
}

gp::SparseVariationalGp sparse_root_skeleton(std::int64_t inducing_points, std::int64_t dimensions,
                                             bool train_inducing_inputs,
                                             const std::string& kernel_name) {
  auto mean = std::make_shared<gp::LinearMeanImpl>(gp::LinearMeanOptions{dimensions});
  auto kernel = gp::make_kernel(kernel_name, {at::ones({dimensions}, at::kDouble), 1.0});
  auto likelihood = std::make_shared<gp::GaussianLikelihoodImpl>();
  const at::Tensor z =
      at::arange(inducing_points * dimensions, at::kDouble).reshape({inducing_points, dimensions});
  gp::SparseVariationalGpOptions options;
  options.train_inducing_inputs = train_inducing_inputs;
  return gp::SparseVariationalGp(mean, kernel, likelihood, z, options);
}

gp::SparseVariationalGp sparse_root_from_checkpoint(const io::Checkpoint& checkpoint,
                                                    const std::string& prefix,
                                                    const std::string& source) {
  const at::Tensor& z = checkpoint.tensor("param/" + prefix + "inducing_inputs", source);
  if (z.dim() != 2 || z.size(0) < 1 || z.size(1) < 1)
    throw io::CheckpointError(source + ": " + prefix + "inducing_inputs is not an [M, D] array");
  const std::string kernel = root_kernel_name(checkpoint);
  gp::SparseVariationalGp root = sparse_root_skeleton(z.size(0), z.size(1), false, kernel);
  load_parameters(*root, prefix, checkpoint, source);
  return root;
}

}  // namespace bhpm::model
