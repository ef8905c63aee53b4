#include "gp/pathwise_samples.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gp/argument_checks.h"
#include "gp/cholesky.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::gp {

void validate(const PathwiseOptions& options) {
  util::require_at_least(options.features, 1, "pathwise samples", "features");
  util::require_at_least(options.first_sample, 0, "pathwise samples", "first_sample");
  util::require_positive(options.deviation_scale, "pathwise samples", "deviation_scale");
}

namespace {

void require_samples(std::int64_t count) {
  if (count < 1)
    throw std::invalid_argument("pathwise samples: count must be >= 1 (got " +
                                std::to_string(count) + ")");
}

}  // namespace

PathwiseSamples::PathwiseSamples(const SparseVariationalGpImpl& gp, std::int64_t count,
                                 const PathwiseOptions& options)
    : mean_(gp.mean()), kernel_(gp.kernel()) {
  validate(options);
  require_samples(count);
  if (options.deviation_scale != 1.0)
    throw std::invalid_argument(
        "pathwise samples: deviation_scale is for the exact GP's samples; a sparse GP's spread "
        "is scaled through q(u) (gp/inflated_posterior.h)");
  const at::NoGradGuard no_grad;
  inducing_inputs_ = gp.inducing_inputs().detach().clone();
  features_ = kernel_->random_features(options.features,
                                       util::derive_seed(options.seed, "pathwise_features", 0));

  // u_s - mu(Z) = L_zz (m + L_S xi_s) in the whitened parametrisation.
  const at::Tensor lower_zz =
      robust_cholesky(kernel_->matrix(inducing_inputs_, inducing_inputs_), "K_zz (inducing inputs)")
          .lower;
  // Each sample's terms are computed alone, not as columns of one [M, S] solve: BLAS may
  // round a column differently with the number of columns, and the members an MPI rank
  // draws must be bit for bit those of one process drawing all of them.
  const at::Tensor features_z = features(inducing_inputs_);  // [M, F]
  std::vector<at::Tensor> weights, updates;
  for (std::int64_t s = 0; s < count; ++s) {
    util::Rng rng(util::derive_seed(options.seed, "pathwise_sample",
                                    static_cast<std::uint64_t>(options.first_sample + s)));
    const at::Tensor w = util::normal_tensor(rng, {features_->count()}, inducing_inputs_.device());
    const at::Tensor data_part = at::linalg_solve_triangular(  // K_zz^{-1} (u_s - mu(Z))
        lower_zz.t(), gp.draw_whitened(rng).unsqueeze(1), /*upper=*/true);
    const at::Tensor prior_part =  // K_zz^{-1} phi(Z) w_s
        at::cholesky_solve(at::mv(features_z, w).unsqueeze(1), lower_zz);
    weights.push_back(w);
    updates.push_back((data_part - prior_part).squeeze(1));
  }
  weights_ = at::stack(weights);              // [S, F]
  update_ = at::stack(updates).contiguous();  // [S, M]
}

PathwiseSamples::PathwiseSamples(const ExactGpImpl& gp, const ExactGpFactor& factor,
                                 std::int64_t count, const PathwiseOptions& options)
    : mean_(gp.mean()), kernel_(gp.kernel()) {
  validate(options);
  require_samples(count);
  const at::NoGradGuard no_grad;
  inducing_inputs_ = gp.train_inputs().detach().clone();
  features_ = kernel_->random_features(options.features,
                                       util::derive_seed(options.seed, "pathwise_features", 0));
  const double noise_sd = std::sqrt(gp.likelihood()->variance().item<double>());
  const at::Tensor features_x = features(inducing_inputs_);  // [N, F]
  std::vector<at::Tensor> weights, updates;
  for (std::int64_t s = 0; s < count; ++s) {  // one sample at a time, as above
    util::Rng rng(util::derive_seed(options.seed, "pathwise_sample",
                                    static_cast<std::uint64_t>(options.first_sample + s)));
    const at::Tensor w = options.deviation_scale *
                         util::normal_tensor(rng, {features_->count()}, inducing_inputs_.device());
    const at::Tensor noise =
        options.deviation_scale * noise_sd *
        util::normal_tensor(rng, {inducing_inputs_.size(0)}, inducing_inputs_.device());
    const at::Tensor prior_part =  // K^{-1} (phi(X) w_s + eps_s)
        at::cholesky_solve((at::mv(features_x, w) + noise).unsqueeze(1), factor.lower);
    weights.push_back(w);
    updates.push_back(factor.alpha.detach() - prior_part.squeeze(1));
  }
  weights_ = at::stack(weights);              // [S, F]
  update_ = at::stack(updates).contiguous();  // [S, N]
}

at::Tensor PathwiseSamples::evaluate(const at::Tensor& v) const {
  if (v.dim() != 3 || v.size(0) != count() || v.size(2) != dimensions())
    throw std::invalid_argument("pathwise samples: v must be [" + std::to_string(count()) +
                                ", P, " + std::to_string(dimensions()) + "] (got " +
                                describe_tensor(v) + ")");
  const std::int64_t s = v.size(0), p = v.size(1);
  const at::Tensor flat = v.reshape({s * p, dimensions()});
  const at::Tensor prior = at::bmm(features(flat).view({s, p, -1}), weights_.unsqueeze(2));
  const at::Tensor update =  // k(v_s, Z) K_zz^{-1} (..), one batched pass (gp/kernel.h)
      kernel_->batched_weighted_sum(v, inducing_inputs_.expand({s, -1, -1}), update_);
  return mean_->forward(flat).view({s, p}) + prior.squeeze(2) + update;
}

std::shared_ptr<const FunctionSamples> PathwiseSamples::select(const at::Tensor& members) const {
  const at::Tensor index = members.to(weights_.device());
  auto selected = std::make_shared<PathwiseSamples>(*this);
  selected->weights_ = weights_.index_select(0, index);
  selected->update_ = update_.index_select(0, index);
  return selected;
}

}  // namespace bhpm::gp
