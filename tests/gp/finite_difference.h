#pragma once
// Central finite differences of a scalar objective with respect to a module's
// parameters, checked against autograd (shared by the gp tests).

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/nn/module.h>

#include <algorithm>
#include <functional>
#include <string>

namespace bhpm::gp::test {

/// For every parameter of `module` that requires grad and up to `entries` of its
/// elements (evenly spaced), expects |fd - autograd| <= tolerance (1 + |autograd|),
/// fd = (f(p + h) - f(p - h)) / 2h.
inline void expect_gradients_match(torch::nn::Module& module,
                                   const std::function<at::Tensor()>& objective, double step = 1e-6,
                                   double tolerance = 1e-6, std::int64_t entries = 6) {
  module.zero_grad(/*set_to_none=*/true);
  objective().backward();
  int checked = 0;
  for (auto& item : module.named_parameters()) {
    at::Tensor p = item.value();
    if (!p.requires_grad()) continue;
    ASSERT_TRUE(p.grad().defined()) << item.key() << " received no gradient";
    const at::Tensor analytic = p.grad().detach().clone().reshape(-1);
    const std::int64_t n = p.numel();
    const std::int64_t stride = std::max<std::int64_t>(1, n / entries);
    for (std::int64_t i = 0; i < n; i += stride) {
      at::Tensor flat = p.detach().view({-1});
      const double original = flat[i].item<double>();
      double value[2];
      for (int side = 0; side < 2; ++side) {
        const at::NoGradGuard no_grad;
        flat[i].fill_(original + (side == 0 ? step : -step));
        value[side] = objective().item<double>();
      }
      flat[i].fill_(original);
      const double fd = (value[0] - value[1]) / (2.0 * step);
      const double ad = analytic[i].item<double>();
      EXPECT_NEAR(fd, ad, tolerance * (1.0 + std::abs(ad))) << item.key() << "[" << i << "]";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace bhpm::gp::test
