#include "model/mean_drift.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/leaf_data.h"
#include "model/leaf_model.h"

namespace bhpm::model {

double MeanDrift::relative() const {
  const double largest_scale = scale.empty() ? 0.0 : *std::max_element(scale.begin(), scale.end());
  const double largest_drift = drift.empty() ? 0.0 : *std::max_element(drift.begin(), drift.end());
  return largest_scale > 0.0 ? largest_drift / largest_scale : 0.0;
}

MeanDrift leaf_mean_drift(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                          std::int64_t x_points, std::int64_t t_points) {
  if (x_points < 2 || t_points < 2)
    throw std::invalid_argument("mean drift: the grid needs >= 2 points in x and in t (got " +
                                std::to_string(x_points) + " x " + std::to_string(t_points) + ")");
  if (static_cast<std::int64_t>(boxes.size()) != leaves.options().network.leaves)
    throw std::invalid_argument("mean drift: " + std::to_string(boxes.size()) + " boxes for " +
                                std::to_string(leaves.options().network.leaves) + " leaves");
  const at::NoGradGuard no_grad;
  // x over [x_min, x_max): the periodic box's right end is its left.
  const auto [x, t] =
      box_grids(boxes, at::arange(x_points, at::kDouble) / static_cast<double>(x_points),
                at::linspace(0.0, 1.0, t_points, at::kDouble));
  return mean_drift(leaves.network().forward(x, t, boxes).view({-1, t_points, x_points}));
}

MeanDrift mean_drift(const at::Tensor& u) {
  if (u.dim() != 3 || u.size(1) < 1 || u.size(2) < 1)
    throw std::invalid_argument("mean drift: u must be [L, T, X] with T, X >= 1");
  const at::Tensor mean = u.mean(2);                                     // M_e(t_k) [L, T]
  const at::Tensor drift = (mean - mean.narrow(1, 0, 1)).abs().amax(1);  // [L]
  const at::Tensor scale = u.reshape({u.size(0), -1}).std(1, /*unbiased=*/false);  // [L]
  MeanDrift result;
  for (std::int64_t e = 0; e < u.size(0); ++e) {
    result.drift.push_back(drift[e].item<double>());
    result.scale.push_back(scale[e].item<double>());
  }
  return result;
}

}  // namespace bhpm::model
