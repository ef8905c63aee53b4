// The spectral predictor under a root of zero variance whose mean is the true Burgers
// operator: both samplers must reproduce the data generator's solution to solver
// accuracy. A member that blows up is dropped and reported, and the others are untouched.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "gp/conditioned_gp.h"
#include "gp/gaussian_likelihood.h"
#include "gp/pathwise_samples.h"
#include "gp/rbf_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "pde/equation.h"
#include "pde/initial_condition.h"
#include "pde/periodic_solve.h"
#include "solve/burgers_operator.h"
#include "solve/spectral_ensemble.h"
#include "util/random.h"

using namespace bhpm;
using testing::HasSubstr;

namespace {

const pde::PeriodicGrid kGrid(-8.0, 8.0, 128);

pde::SolveOptions burgers_solve() {
  pde::SolveOptions options;
  options.t_end = 10.0;
  options.output_dt = 0.5;
  options.stepper.dt = 5e-3;
  return options;
}

at::Tensor initial_condition() {
  return pde::initial_condition_from_expression(kGrid, "-sin(pi*x/8) + 0.3*cos(3*pi*x/8)", "u0");
}

/// The data generator's Burgers solution with the dealiasing that samples get (the 2/3
/// rule for the default padding: solve::sample_dealiasing).
at::Tensor reference_solution(pde::SolveOptions options = burgers_solve()) {
  pde::EquationOptions burgers;
  burgers.name = "burgers";
  options.stepper.dealias = solve::sample_dealiasing(options.stepper.dealias);
  return pde::solve_periodic(kGrid, pde::make_equation(burgers), initial_condition(), options).u[0];
}

/// A sparse root with the Burgers operator as its mean and a kernel of variance 1e-20.
gp::SparseVariationalGp zero_variance_burgers_root() {
  auto kernel = std::make_shared<gp::RbfKernelImpl>(gp::RbfKernelOptions{3, 1.0, 1e-20});
  auto likelihood = std::make_shared<gp::GaussianLikelihoodImpl>(gp::GaussianLikelihoodOptions{});
  const at::Tensor z = at::linspace(-1.0, 1.0, 12, at::kDouble).view({4, 3});
  return gp::SparseVariationalGp(std::make_shared<testing_operator::BurgersMean>(), kernel,
                                 likelihood, z);
}

void expect_reproduces_burgers(std::shared_ptr<const gp::FunctionSamples> samples) {
  const solve::EnsembleSolution ensemble =
      solve::solve_spectral_ensemble(kGrid, samples, initial_condition(), burgers_solve());
  const at::Tensor reference = reference_solution();
  ASSERT_EQ(ensemble.diverged_count(), 0);
  for (std::int64_t s = 0; s < ensemble.u.size(0); ++s)
    EXPECT_LT((ensemble.u[s] - reference).abs().max().item<double>(), 1e-8) << "member " << s;
}

/// Member 0: Burgers; member 1: Burgers with anti-diffusion -0.1 u_xx (ill-posed).
class HalfIllPosed final : public gp::FunctionSamples {
 public:
  std::int64_t count() const override { return 2; }
  std::int64_t dimensions() const override { return 3; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    const at::Tensor sign = at::tensor({1.0, -1.0}, at::kDouble).view({2, 1});
    return -v.select(2, 0) * v.select(2, 1) + 0.1 * sign * v.select(2, 2);
  }
};

}  // namespace

TEST(SpectralEnsemble, pathwise_samples_of_an_exact_root_reproduce_burgers) {
  const gp::SparseVariationalGp root = zero_variance_burgers_root();
  const at::NoGradGuard no_grad;
  expect_reproduces_burgers(
      std::make_shared<gp::PathwiseSamples>(*root, 2, gp::PathwiseOptions{64, 1}));
}

TEST(SpectralEnsemble, conditioned_samples_of_an_exact_root_reproduce_burgers) {
  const gp::SparseVariationalGp root = zero_variance_burgers_root();
  const at::NoGradGuard no_grad;
  util::Rng rng(3);
  std::vector<gp::ConditionedGp> members{gp::condition_on_inducing_draw(*root, rng),
                                         gp::condition_on_inducing_draw(*root, rng)};
  expect_reproduces_burgers(std::make_shared<gp::ConditionedSamples>(std::move(members)));
}

// The linear part is the members' average Jacobian, (0, mean(-u), 0): member 0's diffusion
// is explicit, which a 5e-3 step resolves, so it still matches to 1e-6.
TEST(SpectralEnsemble, a_diverging_member_is_dropped_and_reported) {
  std::vector<double> linear;
  const solve::EnsembleSolution ensemble =
      solve::solve_spectral_ensemble(kGrid, std::make_shared<HalfIllPosed>(), initial_condition(),
                                     burgers_solve(), false, &linear);
  EXPECT_NEAR(linear[2], 0.0, 1e-14);
  EXPECT_EQ(ensemble.diverged_count(), 1);
  EXPECT_TRUE(ensemble.diverged[1].item<bool>());
  EXPECT_THAT(ensemble.failures[1], HasSubstr("blew up by t ="));
  EXPECT_LT((ensemble.u[0] - reference_solution()).abs().max().item<double>(), 1e-6);
}

// Adaptive steps shared by the batch: the ill-posed member is dropped, the sound one
// matches the data generator's solution within the tolerance (4e-8 measured; t in [0, 2]).
TEST(SpectralEnsemble, adaptive_steps_drop_the_diverging_member_and_keep_the_other) {
  pde::SolveOptions options = burgers_solve();
  options.t_end = 2.0;
  const at::Tensor reference = reference_solution(options);
  options.tolerance = 1e-6;
  const solve::EnsembleSolution ensemble = solve::solve_spectral_ensemble(
      kGrid, std::make_shared<HalfIllPosed>(), initial_condition(), options);
  EXPECT_EQ(ensemble.diverged_count(), 1);
  EXPECT_TRUE(ensemble.diverged[1].item<bool>());
  EXPECT_THAT(ensemble.failures[1], HasSubstr("blew up by t ="));
  EXPECT_LT((ensemble.u[0] - reference).abs().max().item<double>(), 1e-6);
}

TEST(SpectralEnsemble, linear_part_of_burgers_is_its_diffusion) {
  std::vector<double> linear;
  solve::solve_spectral_ensemble(kGrid, std::make_shared<testing_operator::ExactBurgersSamples>(1),
                                 initial_condition(), burgers_solve(), false, &linear);
  const double mean_u = initial_condition().mean().item<double>();
  EXPECT_NEAR(linear[0], 0.0, 1e-12);  // mean(-u_x) over a period
  EXPECT_NEAR(linear[1], -mean_u, 1e-12);
  EXPECT_NEAR(linear[2], 0.1, 1e-14);
}

namespace {

/// Burgers plus member-dependent non-conserving terms: member 0 adds 0.02, member 1 adds
/// 0.05 u (a growth of the mean), so neither conserves <u>_x.
class BurgersWithSources final : public gp::FunctionSamples {
 public:
  std::int64_t count() const override { return 2; }
  std::int64_t dimensions() const override { return 3; }
  at::Tensor evaluate(const at::Tensor& v) const override {
    const at::Tensor burgers = -v.select(2, 0) * v.select(2, 1) + 0.1 * v.select(2, 2);
    return burgers + at::stack({at::full_like(burgers[0], 0.02), 0.05 * v[1].select(1, 0)});
  }
};

}  // namespace

// The projection u_t = f_s - <f_s>_x conserves <u>_x to round-off whatever f_s adds; for
// an f_s that is Burgers plus a constant it removes the constant exactly, so the member is
// the Burgers solution again; without it the mean drifts by 0.02 t.
TEST(SpectralEnsemble, conserving_the_mean_removes_a_samples_uniform_drift) {
  const auto samples = std::make_shared<BurgersWithSources>();
  const solve::EnsembleSolution projected = solve::solve_spectral_ensemble(
      kGrid, samples, initial_condition(), burgers_solve(), /*conserve_mean=*/true);
  const solve::EnsembleSolution plain =
      solve::solve_spectral_ensemble(kGrid, samples, initial_condition(), burgers_solve());
  const double mean0 = initial_condition().mean().item<double>();
  ASSERT_EQ(projected.diverged_count(), 0);
  EXPECT_LT((projected.u.mean(2) - mean0).abs().max().item<double>(), 1e-10);
  EXPECT_LT((projected.u[0] - reference_solution()).abs().max().item<double>(), 1e-6);
  EXPECT_NEAR(plain.u[0][-1].mean().item<double>() - mean0, 0.02 * 10.0, 1e-8);
}
