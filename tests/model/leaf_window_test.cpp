// An experiment's window read off its leaf: the grid spans the leaf's box, u0 is the leaf's
// u at the window's start, and each boundary condition is the leaf's u or u_x at its end as
// time goes on (against the network's plain forward pass and a central difference in x).

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/leaf_model.h"
#include "model/leaf_window.h"
#include "model/training_fixture.h"
#include "nn/sine_mlp.h"

using namespace bhpm;

namespace {

/// Leaf `leaf`'s u at (x, t) by the network's forward pass alone.
double leaf_u(const model::LeafModel& leaves, const std::vector<nn::DomainBox>& boxes, int leaf,
              double x, double t) {
  at::Tensor xs = at::zeros({2, 1}, at::kDouble), ts = at::zeros({2, 1}, at::kDouble);
  for (int l = 0; l < 2; ++l) {
    xs[l][0] = l == leaf ? x : 0.5 * (boxes[l].x_min + boxes[l].x_max);
    ts[l][0] = l == leaf ? t : 0.5 * (boxes[l].t_min + boxes[l].t_max);
  }
  return leaves->network().forward(xs, ts, boxes)[leaf][0].item<double>();
}

}  // namespace

TEST(LeafWindow, reads_the_start_and_the_ends_of_its_experiment_off_the_leaf) {
  const model::LeafModel leaves(testing_fixture::leaf_options(2, 16));
  const std::vector<nn::DomainBox> boxes = {{-8.0, 8.0, 0.0, 10.0}, {-1.0, 2.0, 0.5, 1.5}};
  const model::LeafWindow window = model::leaf_window(*leaves, boxes, 1, 12, {1, 2}, 201);
  EXPECT_DOUBLE_EQ(window.grid.a(), -1.0);
  EXPECT_DOUBLE_EQ(window.grid.b(), 2.0);
  EXPECT_DOUBLE_EQ(window.t_start, 0.5);
  EXPECT_DOUBLE_EQ(window.duration, 1.0);
  for (std::int64_t j = 0; j < window.grid.points(); ++j)
    EXPECT_NEAR(window.u0[j].item<double>(),
                leaf_u(leaves, boxes, 1, window.grid.x()[j].item<double>(), 0.5), 1e-12);

  ASSERT_EQ(window.conditions.left.size(), 1u);
  ASSERT_EQ(window.conditions.right.size(), 2u);
  EXPECT_EQ(window.conditions.right[1].order(), 1);
  const double t = 0.37, h = 1e-5;  // 0.37 after the window's start, between tabulated times
  EXPECT_NEAR(window.conditions.left[0].value(t), leaf_u(leaves, boxes, 1, -1.0, 0.5 + t), 1e-7);
  EXPECT_NEAR(window.conditions.right[0].value(t), leaf_u(leaves, boxes, 1, 2.0, 0.5 + t), 1e-7);
  const double u_x =
      (leaf_u(leaves, boxes, 1, 2.0 + h, 0.5 + t) - leaf_u(leaves, boxes, 1, 2.0 - h, 0.5 + t)) /
      (2 * h);
  EXPECT_NEAR(window.conditions.right[1].value(t), u_x, 1e-6 * (1.0 + std::abs(u_x)));

  EXPECT_TRUE(model::leaf_window(*leaves, boxes, 0, 8, {0, 0}).conditions.left.empty());
  EXPECT_THROW(model::leaf_window(*leaves, boxes, 2, 8, {1, 1}), std::invalid_argument);
}
