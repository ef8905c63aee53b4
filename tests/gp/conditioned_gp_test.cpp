// Noise-free conditioning (paper Eq. 5) against dense linear algebra, its interpolation
// property, sequential = joint conditioning, joint draws matching the posterior, and the
// gradient of the conditioned variance that Algorithm 1 descends.

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/autograd.h>

#include <stdexcept>
#include <vector>

#include "gp/conditioned_gp.h"
#include "gp/extended_variance.h"
#include "gp/finite_difference.h"
#include "gp/gp_test_problem.h"
#include "gp/rbf_quadratic_kernel.h"
#include "support/tensors.h"
#include "util/random.h"

using namespace bhpm::gp;
using namespace bhpm::gp::test;

namespace {

ConditionedGp conditioned(const GpParts& parts, const at::Tensor& x, const at::Tensor& f) {
  return ConditionedGp(parts.mean.ptr(), parts.kernel.ptr(), x, f);
}

using bhpm::testing_support::max_abs;

}  // namespace

TEST(ConditionedGp, matches_dense_posterior) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(12, 1);
  const at::Tensor f = targets(x, 2);
  const at::Tensor v = inputs(7, 3);
  const ConditionedGp gp = conditioned(parts, x, f);

  const at::Tensor k_cc = dense_kernel(x, x);
  const at::Tensor k_vc = dense_kernel(v, x);
  const at::Tensor mean = dense_mean(v) + at::mv(k_vc, at::linalg_solve(k_cc, f - dense_mean(x)));
  const at::Tensor covariance = dense_kernel(v, v) - at::mm(k_vc, at::linalg_solve(k_cc, k_vc.t()));
  const at::NoGradGuard no_grad;
  const MultivariateNormal posterior = gp.posterior(v);
  EXPECT_LT(max_abs(posterior.mean - mean), 1e-8);
  EXPECT_LT(max_abs(posterior.covariance - covariance), 1e-8);
  EXPECT_LT(max_abs(gp.mean(v) - mean), 1e-8);
  EXPECT_LT(max_abs(gp.variance(v) - covariance.diagonal()), 1e-8);
}

TEST(ConditionedGp, interpolates_its_conditioning_points) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(10, 4);
  const at::Tensor f = targets(x, 5);
  const at::NoGradGuard no_grad;
  const ConditionedGp gp = conditioned(parts, x, f);
  EXPECT_LT(max_abs(gp.mean(x) - f), 1e-7);
  EXPECT_LT(max_abs(gp.variance(x)), 1e-7 * kSignalVariance);
}

TEST(ConditionedGp, sequential_conditioning_equals_joint_conditioning) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(14, 6);
  const at::Tensor f = targets(x, 7);
  const at::Tensor v = inputs(5, 8);
  const at::NoGradGuard no_grad;
  const ConditionedGp joint = conditioned(parts, x, f);
  const ConditionedGp sequential =
      conditioned(parts, x.slice(0, 0, 6), f.slice(0, 0, 6)).extended(x.slice(0, 6), f.slice(0, 6));
  EXPECT_EQ(sequential.size(), 14);
  EXPECT_LT(max_abs(joint.mean(v) - sequential.mean(v)), 1e-10);
  EXPECT_LT(max_abs(joint.variance(v) - sequential.variance(v)), 1e-10);
}

// 20000 joint draws at 3 points: mean within 5 standard errors, covariance entries within
// 0.05 of the prior variance (standard error of a sample covariance ~ s^2 sqrt(2 / n)).
TEST(ConditionedGp, joint_draws_follow_the_posterior) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(6, 9);
  const at::NoGradGuard no_grad;
  const ConditionedGp gp = conditioned(parts, x, targets(x, 10));
  const at::Tensor v = inputs(3, 11);
  bhpm::util::Rng rng(12);
  std::vector<at::Tensor> draws;
  for (int i = 0; i < 20000; ++i) draws.push_back(gp.sample(v, rng));
  const at::Tensor samples = at::stack(draws);  // [n, 3]
  const MultivariateNormal posterior = gp.posterior(v);
  const at::Tensor error = samples.mean(0) - posterior.mean;
  EXPECT_TRUE(
      at::all(error.abs() < 5.0 * at::sqrt(posterior.covariance.diagonal() / 20000.0)).item<bool>())
      << error;
  const at::Tensor centred = samples - samples.mean(0);
  const at::Tensor covariance = at::mm(centred.t(), centred) / 19999.0;
  EXPECT_LT(max_abs(covariance - posterior.covariance), 0.05 * kSignalVariance);
}

TEST(ConditionedGp, variance_gradient_with_respect_to_conditioning_inputs) {
  const GpParts parts = make_parts();
  const at::Tensor fixed = inputs(5, 13);
  const at::Tensor v = inputs(20, 14);
  // The conditioning inputs as a module parameter so that the shared checker perturbs them.
  struct Inputs : torch::nn::Module {
    at::Tensor z;
  } module;
  module.z = module.register_parameter("z", inputs(3, 15));
  const auto objective = [&] {
    return conditioned_variance(*parts.kernel, at::cat({fixed, module.z}), v).mean();
  };
  expect_gradients_match(module, objective, 1e-6, 1e-6);
}

// The block update of the factor: the variance after adding new inputs equals the
// variance of the prior conditioned on all inputs afresh, and so does its gradient with
// respect to the new inputs; no new input leaves the current variance.
TEST(ExtendedVariance, equals_conditioning_on_all_inputs_afresh) {
  const GpParts parts = make_parts();
  const at::Tensor fixed = inputs(6, 16);
  const at::Tensor v = inputs(30, 17);
  const ConditionedGp current = conditioned(parts, fixed, targets(fixed, 18));
  const ExtendedVariance variance_after(current, v);
  const at::Tensor added = inputs(4, 19).requires_grad_(true);
  const at::Tensor updated = variance_after(added);
  const at::Tensor afresh = conditioned_variance(*parts.kernel, at::cat({fixed, added}), v);
  EXPECT_LT(max_abs(updated - afresh), 1e-12 * kSignalVariance);
  EXPECT_GT(max_abs(updated - current.variance(v)), 1e-3 * kSignalVariance);
  const at::Tensor gradient = torch::autograd::grad({updated.mean()}, {added})[0];
  const at::Tensor reference = torch::autograd::grad({afresh.mean()}, {added})[0];
  EXPECT_LT(max_abs(gradient - reference), 1e-10 * max_abs(reference));
  EXPECT_LT(max_abs(variance_after(v.narrow(0, 0, 0)) - current.variance(v)), 1e-12);
}

// Weyl's bound: no m further inputs leave a mean variance at v below (1/P) times the sum of
// the conditioned covariance's eigenvalues after the m-th (here from a dense
// eigendecomposition). least_mean finds it exactly for m + 8 >= P and by subspace iteration
// otherwise, high by at most 1 % of it; random inputs and those of largest variance stay above.
TEST(ExtendedVariance, least_mean_is_the_eigenvalue_tail_that_bounds_every_choice) {
  const GpParts parts = make_parts();
  const at::Tensor v = inputs(60, 31);
  const ConditionedGp current = conditioned(parts, inputs(6, 16), targets(inputs(6, 16), 18));
  const ExtendedVariance variance_after(current, v);
  const at::Tensor eigenvalues = at::linalg_eigvalsh(current.posterior(v).covariance);
  const double mean_variance = current.variance(v).mean().item<double>();
  for (const std::int64_t m : {1, 4, 10, 55}) {
    const double tail = eigenvalues.narrow(0, 0, 60 - m).clamp_min(0.0).sum().item<double>() / 60;
    const double bound = variance_after.least_mean(m);
    EXPECT_GE(bound, tail - 1e-12) << "m = " << m;  // Ritz values fall short: errs high
    EXPECT_LE(bound, tail * (1.0 + 1e-2) + 1e-12) << "m = " << m;
    const double random_choice = variance_after(inputs(m, 40 + m)).mean().item<double>();
    const at::Tensor largest = std::get<1>(current.variance(v).topk(m));
    const double largest_choice = variance_after(v.index_select(0, largest)).mean().item<double>();
    EXPECT_GE(random_choice, tail) << "m = " << m;
    EXPECT_GE(largest_choice, tail) << "m = " << m;
  }
  EXPECT_NEAR(variance_after.least_mean(0), mean_variance, 1e-12);
  EXPECT_EQ(variance_after.least_mean(60), 0.0);
  EXPECT_THROW(variance_after.least_mean(-1), std::invalid_argument);
}

// Inputs 40 lengthscales apart do not correlate: the conditioned covariance is diagonal, and
// conditioning on the m inputs of largest variance reaches the bound, the mean of the rest.
TEST(ExtendedVariance, least_mean_is_reached_where_the_inputs_do_not_correlate) {
  const GpParts parts = make_parts();
  const at::Tensor v = at::zeros({12, 2}, kReal);
  v.select(1, 0).copy_(at::arange(12, kReal) * 40.0);
  const at::Tensor offsets = at::zeros({12, 2}, kReal);
  offsets.select(1, 0).copy_(at::linspace(0.05, 1.5, 12, kReal));
  const at::Tensor fixed = v + offsets;  // one conditioning input beside each, ever farther
  const ConditionedGp current = conditioned(parts, fixed, targets(fixed, 18));
  const ExtendedVariance variance_after(current, v);
  const at::Tensor variances = current.variance(v);
  for (const std::int64_t m : {2, 5}) {
    const auto [top, largest] = variances.topk(m);
    const double rest = (variances.sum() - top.sum()).item<double>() / 12;
    EXPECT_NEAR(variance_after.least_mean(m), rest, 1e-12 * kSignalVariance) << "m = " << m;
    EXPECT_NEAR(variance_after(v.index_select(0, largest)).mean().item<double>(), rest,
                1e-12 * kSignalVariance)
        << "m = " << m;
  }
}

TEST(ConditionedSamples, members_of_different_sizes_evaluate_in_one_batch_as_one_by_one) {
  const GpParts parts = make_parts();
  const GpParts other = make_parts();  // a second prior: evaluated member by member
  const std::vector<ConditionedGp> members = {
      conditioned(parts, inputs(5, 21), targets(inputs(5, 21), 22)),
      conditioned(parts, inputs(9, 23), targets(inputs(9, 23), 24)),
      conditioned(parts, inputs(2, 25), targets(inputs(2, 25), 26))};
  const at::Tensor v =
      at::stack({inputs(6, 27), inputs(6, 28), inputs(6, 29)}).requires_grad_(true);
  for (const bool shared : {true, false}) {
    std::vector<ConditionedGp> batch = members;
    if (!shared) batch[1] = conditioned(other, members[1].inputs(), members[1].values());
    const at::Tensor values = ConditionedSamples(batch).evaluate(v);
    const at::Tensor gradient = torch::autograd::grad({values.square().sum()}, {v})[0];
    for (std::int64_t s = 0; s < 3; ++s) {
      const at::Tensor vs = v[s].detach().requires_grad_(true);
      const at::Tensor one = members[static_cast<std::size_t>(s)].mean(vs);
      EXPECT_LT(max_abs(values[s] - one), 1e-12) << "shared prior " << shared << ", member " << s;
      const at::Tensor one_gradient = torch::autograd::grad({one.square().sum()}, {vs})[0];
      EXPECT_LT(max_abs(gradient[s] - one_gradient), 1e-10) << "member " << s;
    }
  }
}

// Members whose prior is a linear mean with the RBF or the RBF-plus-quadratic kernel are
// held as kernel expansions (gp/kernel_expansion.h) and evaluate plain arrays as the tensor
// path does, to rounding: near the conditioning inputs and up to three times farther out,
// where the quadratic part dominates; 1000 points make more than one block of exponents.
TEST(ConditionedSamples, plain_values_equal_the_tensor_evaluation) {
  const GpParts parts = make_parts();
  RbfQuadraticKernel quadratic(RbfQuadraticKernelOptions{2, 1.0, kSignalVariance, 0.3});
  quadratic->rbf().set_lengthscales(at::tensor({kLengthscales[0], kLengthscales[1]}, kReal));
  quadratic->set_polynomial_scales(at::tensor({0.8, 1.7}, kReal));
  const std::vector<std::shared_ptr<Kernel>> kernels = {parts.kernel.ptr(), quadratic.ptr()};
  const at::NoGradGuard no_grad;
  for (const std::shared_ptr<Kernel>& kernel : kernels) {
    const std::vector<ConditionedGp> members = {
        ConditionedGp(parts.mean.ptr(), kernel, inputs(9, 41), targets(inputs(9, 41), 42)),
        ConditionedGp(parts.mean.ptr(), kernel, inputs(5, 43), targets(inputs(5, 43), 44))};
    const ConditionedSamples samples(members);
    ASSERT_TRUE(samples.evaluates_values()) << kernel->name();
    const at::Tensor v = 3.0 * at::stack({inputs(1000, 45), inputs(1000, 46)});
    const at::Tensor f = samples.evaluate(v);
    for (std::int64_t s = 0; s < 2; ++s) {
      const at::Tensor rows = v[s].t().contiguous();  // [D, P]
      at::Tensor out = at::empty({1000}, kReal);
      samples.evaluate_values(s, rows.data_ptr<double>(), 1000, 0.0, out.data_ptr<double>());
      EXPECT_LT(max_abs((out - f[s]) / f[s].abs().clamp_min(1.0)), 1e-12)
          << kernel->name() << ", member " << s;
    }
  }
}

TEST(ConditionedGp, rejects_bad_shapes) {
  const GpParts parts = make_parts();
  const at::Tensor x = inputs(4, 16);
  EXPECT_THROW(conditioned(parts, x, at::zeros({3}, kReal)), std::invalid_argument);
  EXPECT_THROW(conditioned(parts, at::zeros({4, 3}, kReal), at::zeros({4}, kReal)),
               std::invalid_argument);
  EXPECT_THROW(ConditionedSamples({}), std::invalid_argument);
}
