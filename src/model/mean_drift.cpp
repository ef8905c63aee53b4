#include "model/mean_drift.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/leaf_model.h"

namespace bhpm::model {

double MeanDrift::relative() const {
  const double largest_scale = scale.empty() ? 0.0 : *std::max_element(scale.begin(), scale.end());
  const double largest_drift = drift.empty() ? 0.0 : *std::max_element(drift.begin(), drift.end());
  return largest_scale > 0.0 ? largest_drift / largest_scale : 0.0;
}

namespace {

/// x [L, X T] and t [L, X T] of every leaf's grid, x fastest: X points over [x_min, x_max)
/// and T over [t_min, t_max].
std::pair<at::Tensor, at::Tensor> box_grids(const std::vector<nn::DomainBox>& boxes,
                                            std::int64_t x_points, std::int64_t t_points) {
  const at::Tensor unit_x = at::arange(x_points, at::kDouble) / static_cast<double>(x_points);
  const at::Tensor unit_t = at::linspace(0.0, 1.0, t_points, at::kDouble);
  std::vector<at::Tensor> xs, ts;
  for (const nn::DomainBox& box : boxes) {
    const at::Tensor x = box.x_min + (box.x_max - box.x_min) * unit_x;
    const at::Tensor t = box.t_min + (box.t_max - box.t_min) * unit_t;
    xs.push_back(x.unsqueeze(0).expand({t_points, x_points}).reshape({-1}));
    ts.push_back(t.unsqueeze(1).expand({t_points, x_points}).reshape({-1}));
  }
  return {at::stack(xs), at::stack(ts)};
}

}  // namespace

MeanDrift leaf_mean_drift(const LeafModelImpl& leaves, const std::vector<nn::DomainBox>& boxes,
                          std::int64_t x_points, std::int64_t t_points) {
  if (x_points < 2 || t_points < 2)
    throw std::invalid_argument("mean drift: the grid needs >= 2 points in x and in t (got " +
                                std::to_string(x_points) + " x " + std::to_string(t_points) + ")");
  if (static_cast<std::int64_t>(boxes.size()) != leaves.options().network.leaves)
    throw std::invalid_argument("mean drift: " + std::to_string(boxes.size()) + " boxes for " +
                                std::to_string(leaves.options().network.leaves) + " leaves");
  const at::NoGradGuard no_grad;
  const auto [x, t] = box_grids(boxes, x_points, t_points);
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
