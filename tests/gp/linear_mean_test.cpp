// LinearMean: mu(v) = w . v + b.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gp/linear_mean.h"
#include "support/tensors.h"

using namespace bhpm::gp;
using ::testing::HasSubstr;

namespace {
using bhpm::testing_support::kReal;
}

TEST(LinearMean, starts_at_zero_and_evaluates_w_dot_v_plus_b) {
  LinearMean mean(LinearMeanOptions{3});
  const at::Tensor x = at::tensor({1.0, 2.0, 3.0, -1.0, 0.5, 4.0}, kReal).view({2, 3});
  EXPECT_EQ(mean->forward(x).abs().max().item<double>(), 0.0);
  mean->set_weight(at::tensor({0.5, -1.0, 2.0}, kReal));
  mean->set_bias(0.25);
  const at::Tensor value = mean->forward(x);
  ASSERT_EQ(value.sizes(), (std::vector<std::int64_t>{2}));
  EXPECT_NEAR(value[0].item<double>(), 0.5 - 2.0 + 6.0 + 0.25, 1e-15);
  EXPECT_NEAR(value[1].item<double>(), -0.5 - 0.5 + 8.0 + 0.25, 1e-15);
}

TEST(LinearMean, parameters_are_registered_and_trainable) {
  LinearMean mean(LinearMeanOptions{2});
  const auto parameters = mean->named_parameters();
  ASSERT_EQ(parameters.size(), 2u);
  EXPECT_TRUE(parameters["weight"].requires_grad());
  EXPECT_TRUE(parameters["bias"].requires_grad());
  const at::Tensor x = at::tensor({1.0, 2.0, 3.0, 4.0}, kReal).view({2, 2});
  mean->forward(x).sum().backward();
  EXPECT_TRUE(at::allclose(mean->weight().grad(), at::tensor({4.0, 6.0}, kReal)));
  EXPECT_NEAR(mean->bias().grad().item<double>(), 2.0, 1e-15);
}

TEST(LinearMean, options_and_inputs_are_checked_by_name) {
  try {
    LinearMean(LinearMeanOptions{0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("linear mean: dimensions must be >= 1 (got 0)"));
  }
  LinearMean mean(LinearMeanOptions{2});
  EXPECT_THROW(mean->forward(at::zeros({3, 3}, kReal)), std::invalid_argument);
  EXPECT_THROW(mean->set_weight(at::zeros({3}, kReal)), std::invalid_argument);
}

TEST(LinearMean, the_mean_interface_writes_its_formula_and_hyperparameters) {
  LinearMean mean(LinearMeanOptions{3});
  mean->set_weight(at::tensor({0.0012, -0.98765, 0.1}, kReal));
  mean->set_bias(-2e-5);
  const Mean& any = *mean;
  EXPECT_EQ(any.formula({"u", "u_x", "u_xx"}), " +0.0012 u -0.9877 u_x +0.1 u_xx -2e-05");
  EXPECT_THROW(any.formula({"u"}), std::invalid_argument);
  const std::vector<Hyperparameter> parameters = any.hyperparameters();
  ASSERT_EQ(parameters.size(), 2u);
  EXPECT_EQ(parameters[0].name, "mean_weight");
  EXPECT_EQ(parameters[0].symbol, "w");
  EXPECT_TRUE(at::equal(parameters[0].value, mean->weight().detach()));
  EXPECT_EQ(parameters[1].name, "mean_bias");
  EXPECT_EQ(parameters[1].value.item<double>(), -2e-5);
}
