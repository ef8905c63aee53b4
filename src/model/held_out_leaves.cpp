#include "model/held_out_leaves.h"

#include <ATen/ATen.h>
#include <torch/torch.h>

#include <stdexcept>

#include "model/leaf_laplace.h"
#include "util/random.h"

namespace bhpm::model {

LeafModel fit_held_out_leaves(const LeafData& fitted, LeafModelOptions options,
                              LeafTrainingOptions schedule, std::uint64_t seed,
                              const TrainingCallback& progress) {
  const std::uint64_t own_seed = util::derive_seed(seed, "held_out_leaves", 0);
  options.network.leaves = fitted.leaves();
  options.network.seed = own_seed;
  schedule.seed = own_seed;
  schedule.checkpoint_path.clear();
  schedule.history_path.clear();  // the run's leaves keep theirs
  LeafModel leaves(options);
  leaves->to(fitted.x.device());
  train_leaves(*leaves, fitted, schedule, progress);
  return leaves;
}

gp::MarginalNormal leaf_predictive(const LeafModelImpl& leaves, const LeafData& fitted,
                                   const LeafData& points) {
  const torch::NoGradGuard no_grad;
  const at::Tensor covariance = last_layer_covariance(leaves, fitted);
  const at::Tensor row_covariance =
      root_row_covariance(leaves, covariance, points, 1);  // [L, B, 3, 3]: (u, u_x, u_t)
  const at::Tensor mean = leaves.network().forward(points.x, points.t, points.boxes);
  const at::Tensor noise = leaves.noise_scale().square().unsqueeze(1).expand_as(mean);
  return {mean.reshape({-1}), (row_covariance.select(3, 0).select(2, 0) + noise).reshape({-1})};
}

}  // namespace bhpm::model
