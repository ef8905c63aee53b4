// The model-discrepancy field (gp/discrepancy_field.h): its covariance against the kernel
// tau^2 exp(-|v - v'|^2 / (2 l^2)) exp(-(t - t')^2 / (2 T^2)) by Monte Carlo over members,
// constant in time for T = 0, a field on the first inputs only, members that do not depend on S or
// on the batch they are evaluated in, gradients against finite differences, and refusals.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "gp/discrepancy_field.h"
#include "support/tensors.h"

using bhpm::gp::DiscrepancyField;
using bhpm::gp::DiscrepancyOptions;
using bhpm::gp::FunctionSamples;
using bhpm::gp::SamplesWithDiscrepancy;
using testing::HasSubstr;

namespace {

using bhpm::testing_support::kReal;

DiscrepancyOptions options(double variance, double timescale) {
  DiscrepancyOptions o;
  o.variance = variance;
  o.timescale = timescale;
  o.seed = 11;
  return o;
}

at::Tensor at_time(double t) { return at::scalar_tensor(t, at::kDouble); }

/// S operator samples that are all the zero function, so that a sum with the field is
/// the field alone.
class ZeroSamples final : public FunctionSamples {
 public:
  ZeroSamples(std::int64_t count, std::int64_t dimensions) : count_(count), d_(dimensions) {}
  std::int64_t count() const override { return count_; }
  std::int64_t dimensions() const override { return d_; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    return (0.0 * v).sum(2);  // keeps v's graph, for the gradient test
  }
  bool evaluates_values() const override { return true; }
  void evaluate_values(std::int64_t /*s*/, const double* /*v*/, std::int64_t points, double /*t*/,
                       double* out) const override {
    std::fill(out, out + points, 0.0);
  }

 private:
  std::int64_t count_, d_;
};

}  // namespace

// Over 20000 members, the empirical covariance of (delta(v_1, t_1), .., delta(v_4, t_4)) is
// the kernel's within 0.03 tau^2 (standard errors about 0.01 tau^2): every member draws its
// own features, so the features' average is the kernel itself, not an approximation of it.
// Each point has its own time (t given per point, as the PINN solver does).
TEST(DiscrepancyField, covariance_over_members_is_the_rbf_kernel_in_v_and_t) {
  const std::int64_t members = 20000;
  const at::Tensor lengthscales = at::tensor({1.5, 0.4}, kReal);
  const double tau2 = 4.0, timescale = 0.7;
  const DiscrepancyField field(lengthscales, members, options(tau2, timescale));
  const at::Tensor points =
      at::tensor({0.0, 0.0, 0.3, 0.1, -0.5, 0.2, 0.0, 0.0}, kReal).view({4, 2});
  const at::Tensor times = at::tensor({0.0, 0.2, 0.5, 1.0}, kReal);
  const at::Tensor values = field.evaluate(points.unsqueeze(0).expand({members, 4, 2}).contiguous(),
                                           at::arange(members, at::kLong),
                                           times.unsqueeze(0).expand({members, 4}));  // [S, 4]
  const at::Tensor centred = values - values.mean(0);
  const at::Tensor covariance = at::mm(centred.t(), centred) / static_cast<double>(members - 1);
  const at::Tensor scaled = points / lengthscales;
  const at::Tensor in_time = times.unsqueeze(1) / timescale;
  const at::Tensor expected = tau2 * at::exp(-0.5 * at::cdist(scaled, scaled).square()) *
                              at::exp(-0.5 * at::cdist(in_time, in_time).square());
  EXPECT_LT((covariance - expected).abs().max().item<double>(), 0.03 * tau2) << covariance << "\n"
                                                                             << expected;
  EXPECT_LT(values.mean(0).abs().max().item<double>(), 0.05 * std::sqrt(tau2));
}

// Member s is the same function whatever S and whichever batch rows it is evaluated in; a
// scalar t is the same as t given per point; tau^2 = 0 gives the zero function.
TEST(DiscrepancyField, members_do_not_depend_on_the_count_or_the_batch) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.5, 0.25}, kReal);
  const DiscrepancyField three(lengthscales, 3, options(0.1, 2.0));
  const DiscrepancyField five(lengthscales, 5, options(0.1, 2.0));
  const at::Tensor v = at::randn({2, 7, 3}, kReal);
  const at::Tensor rows = at::tensor({2, 0}, at::kLong);
  const at::Tensor in_three = three.evaluate(v, rows, at_time(0.3));
  EXPECT_TRUE(at::allclose(in_three, five.evaluate(v, rows, at_time(0.3)), 0.0, 0.0));
  EXPECT_TRUE(at::allclose(in_three[0],
                           three.evaluate(v.slice(0, 0, 1), rows.slice(0, 0, 1), at_time(0.3))[0],
                           1e-15, 1e-15));
  EXPECT_TRUE(
      at::allclose(in_three, three.evaluate(v, rows, at::full({2, 7}, 0.3, kReal)), 1e-15, 1e-15));
  EXPECT_GT(in_three.abs().max().item<double>(), 0.0);
  const DiscrepancyField zero(lengthscales, 3, options(0.0, 2.0));
  EXPECT_EQ(zero.evaluate(v, rows, at_time(0.3)).abs().max().item<double>(), 0.0);
}

// T = 0 is a discrepancy constant in time; T > 0 one that changes with t.
TEST(DiscrepancyField, timescale_zero_is_constant_in_time) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.5}, kReal);
  const at::Tensor v = at::randn({3, 6, 2}, kReal);
  const at::Tensor rows = at::tensor({0, 1, 2}, at::kLong);
  const DiscrepancyField constant(lengthscales, 3, options(0.5, 0.0));
  EXPECT_TRUE(at::allclose(constant.evaluate(v, rows, at_time(0.0)),
                           constant.evaluate(v, rows, at_time(17.0)), 0.0, 0.0));
  const DiscrepancyField changing(lengthscales, 3, options(0.5, 1.0));
  EXPECT_GT((changing.evaluate(v, rows, at_time(0.0)) - changing.evaluate(v, rows, at_time(1.0)))
                .abs()
                .max()
                .item<double>(),
            1e-3);
}

// A field on the first m inputs is constant along the others and the same draw as the
// field on all inputs where those are 0; m = D is the field on all inputs.
TEST(DiscrepancyField, a_field_on_the_first_inputs_ignores_the_others) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.5, 0.25}, kReal);
  DiscrepancyOptions first_two = options(0.3, 1.0);
  first_two.inputs = 2;
  const DiscrepancyField lower(lengthscales, 4, first_two);
  const DiscrepancyField all(lengthscales, 4, options(0.3, 1.0));
  const at::Tensor rows = at::tensor({0, 1, 2, 3}, at::kLong);
  const at::Tensor v = at::randn({4, 6, 3}, kReal);
  at::Tensor moved = v.clone();
  moved.select(2, 2).normal_();
  const at::Tensor value = lower.evaluate(v, rows, at_time(0.2));
  EXPECT_TRUE(at::allclose(value, lower.evaluate(moved, rows, at_time(0.2)), 0.0, 0.0));
  at::Tensor on_first = v.clone();
  on_first.select(2, 2).zero_();
  EXPECT_TRUE(at::allclose(value, all.evaluate(on_first, rows, at_time(0.2)), 1e-14, 1e-14));
  moved.select(2, 1).normal_();
  EXPECT_GT((value - lower.evaluate(moved, rows, at_time(0.2))).abs().max().item<double>(), 1e-3);
  first_two.inputs = 3;
  EXPECT_TRUE(
      at::allclose(DiscrepancyField(lengthscales, 4, first_two).evaluate(v, rows, at_time(0.2)),
                   all.evaluate(v, rows, at_time(0.2)), 0.0, 0.0));
}

// SamplesWithDiscrepancy adds member b's delta to sample b, and its gradient with respect
// to v matches central differences (the solvers linearise the samples through it).
TEST(DiscrepancyField, samples_with_discrepancy_add_the_field_and_differentiate) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.3}, kReal);
  auto field = std::make_shared<const DiscrepancyField>(lengthscales, 4, options(0.2, 0.5));
  const at::Tensor members = at::tensor({3, 1}, at::kLong);
  const SamplesWithDiscrepancy samples(std::make_shared<ZeroSamples>(2, 2), field, members);
  const at::Tensor v = at::randn({2, 5, 2}, kReal).requires_grad_(true);
  EXPECT_TRUE(at::allclose(samples.evaluate(v).detach(),
                           field->evaluate(v.detach(), members, at_time(0.0)), 1e-15, 1e-15));
  const at::Tensor t = at_time(0.4);
  const at::Tensor value = samples.evaluate_at(v, t);
  EXPECT_TRUE(at::allclose(value.detach(), field->evaluate(v.detach(), members, t), 1e-15, 1e-15));
  value.sum().backward();
  const double h = 1e-6;
  for (std::int64_t d = 0; d < 2; ++d) {
    at::Tensor step = at::zeros_like(v.detach());
    step.select(2, d).fill_(h);
    const at::Tensor difference = (field->evaluate(v.detach() + step, members, t) -
                                   field->evaluate(v.detach() - step, members, t)) /
                                  (2 * h);
    EXPECT_TRUE(at::allclose(v.grad().select(2, d), difference, 1e-6, 1e-7)) << "d = " << d;
  }
}

// The plain-array path (what the spectral solver's plain engine steps) gives the tensor
// path's values at every time, for a field that changes in time and one that does not, over
// 300 points (three blocks of angles), each member as its own; through samples with the
// field, the member's own field.
TEST(DiscrepancyField, plain_values_equal_the_tensor_evaluation) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.3, 2.0}, kReal);
  const at::Tensor v = at::randn({300, 3}, kReal);
  const at::Tensor rows = v.t().contiguous();  // [D, P]
  for (const double timescale : {0.0, 0.5}) {
    auto field = std::make_shared<const DiscrepancyField>(lengthscales, 4, options(0.2, timescale));
    const at::Tensor members = at::tensor({3, 0}, at::kLong);
    const SamplesWithDiscrepancy samples(std::make_shared<ZeroSamples>(2, 3), field, members);
    ASSERT_TRUE(samples.evaluates_values());
    for (const double t : {0.0, 0.37, 2.0}) {
      const at::Tensor expected =
          field->evaluate(v.unsqueeze(0).expand({2, -1, -1}), members, at_time(t));
      for (std::int64_t s = 0; s < 2; ++s) {
        at::Tensor plain = at::zeros({300}, kReal);
        field->add_values(members[s].item<std::int64_t>(), rows.data_ptr<double>(), 300, t,
                          plain.data_ptr<double>());
        EXPECT_LT((plain - expected[s]).abs().max().item<double>(), 1e-12)
            << "T = " << timescale << ", t = " << t << ", member " << s;
        at::Tensor through = at::empty({300}, kReal);
        samples.evaluate_values(s, rows.data_ptr<double>(), 300, t, through.data_ptr<double>());
        EXPECT_LT((through - expected[s]).abs().max().item<double>(), 1e-12);
      }
    }
  }
}

TEST(DiscrepancyField, refuses_bad_settings_and_members) {
  const at::Tensor lengthscales = at::tensor({1.0, 0.3}, kReal);
  const auto message = [&](const DiscrepancyOptions& o) {
    try {
      DiscrepancyField(lengthscales, 2, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_THAT(message(options(-1.0, 1.0)), HasSubstr("variance must be >= 0"));
  EXPECT_THAT(message(options(1.0, -1.0)), HasSubstr("timescale must be >= 0"));
  DiscrepancyOptions no_inputs = options(1.0, 1.0);
  no_inputs.inputs = 0;
  EXPECT_THAT(message(no_inputs), HasSubstr("inputs must be >= 1 (got 0)"));
  auto field = std::make_shared<const DiscrepancyField>(lengthscales, 2, options(1.0, 1.0));
  try {
    field->evaluate(at::zeros({2, 3, 2}, kReal), at::tensor({0, 1}, at::kLong),
                    at::zeros({2, 4}, kReal));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("t must be a double scalar or [2, 3]"));
  }
  try {
    SamplesWithDiscrepancy(std::make_shared<ZeroSamples>(1, 2), field, at::tensor({2}, at::kLong));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("members must be 1 int64 in [0, 2)"));
  }
  EXPECT_THROW(SamplesWithDiscrepancy(std::make_shared<ZeroSamples>(1, 3), field,
                                      at::tensor({0}, at::kLong)),
               std::invalid_argument);
}
