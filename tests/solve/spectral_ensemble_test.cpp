// The spectral predictor under a root of zero variance whose mean is the true Burgers
// operator: both samplers must reproduce the data generator's solution to solver
// accuracy. A member that blows up is dropped and reported, and the others are untouched.
// A share of a predicted ensemble (what one MPI rank solves) holds the whole's members.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "gp/conditioned_gp.h"
#include "gp/discrepancy_field.h"
#include "gp/linear_mean.h"
#include "gp/pathwise_samples.h"
#include "gp/rbf_quadratic_kernel.h"
#include "gp/sparse_variational_gp.h"
#include "pde/equation.h"
#include "pde/initial_condition.h"
#include "pde/periodic_solve.h"
#include "pde/plain_periodic_solve.h"
#include "solve/burgers_operator.h"
#include "solve/predictor.h"
#include "solve/sampled_operator.h"
#include "solve/spectral_ensemble.h"
#include "solve/stabilised_samples.h"
#include "util/random.h"

using namespace bhpm;
using testing::HasSubstr;

namespace {

const pde::PeriodicGrid kEnsembleGrid(-8.0, 8.0, 128);

pde::SolveOptions burgers_solve() {
  pde::SolveOptions options;
  options.t_end = 10.0;
  options.output_dt = 0.5;
  options.stepper.dt = 5e-3;
  return options;
}

at::Tensor initial_condition() {
  return pde::initial_condition_from_expression(kEnsembleGrid, "-sin(pi*x/8) + 0.3*cos(3*pi*x/8)",
                                                "u0");
}

/// The data generator's Burgers solution with the dealiasing that samples get (the 2/3
/// rule for the default padding: solve::sample_dealiasing).
at::Tensor reference_solution(pde::SolveOptions options = burgers_solve()) {
  pde::EquationOptions burgers;
  burgers.name = "burgers";
  options.stepper.dealias = solve::sample_dealiasing(options.stepper.dealias);
  return pde::solve_periodic(kEnsembleGrid, pde::make_equation(burgers), initial_condition(),
                             options)
      .u[0];
}

void expect_reproduces_burgers(std::shared_ptr<const gp::FunctionSamples> samples) {
  const solve::EnsembleSolution ensemble =
      solve::solve_spectral_ensemble(kEnsembleGrid, samples, initial_condition(), burgers_solve());
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
  const gp::SparseVariationalGp root = testing_operator::burgers_root();
  const at::NoGradGuard no_grad;
  expect_reproduces_burgers(
      std::make_shared<gp::PathwiseSamples>(*root, 2, gp::PathwiseOptions{64, 1}));
}

TEST(SpectralEnsemble, conditioned_samples_of_an_exact_root_reproduce_burgers) {
  const gp::SparseVariationalGp root = testing_operator::burgers_root();
  const at::NoGradGuard no_grad;
  util::Rng rng(3);
  std::vector<gp::ConditionedGp> members{gp::condition_on_inducing_draw(*root, rng),
                                         gp::condition_on_inducing_draw(*root, rng)};
  expect_reproduces_burgers(std::make_shared<gp::ConditionedSamples>(std::move(members)));
}

// The linear part is the members' average Jacobian, (0, mean(-u), 0): member 0's diffusion
// is explicit, which a 5e-3 step resolves, so it still matches to 1e-6.
TEST(SpectralEnsemble, a_diverging_member_is_dropped_and_reported) {
  EXPECT_NEAR(solve::linear_part(kEnsembleGrid, HalfIllPosed(), initial_condition())[2], 0.0,
              1e-14);
  const solve::EnsembleSolution ensemble = solve::solve_spectral_ensemble(
      kEnsembleGrid, std::make_shared<HalfIllPosed>(), initial_condition(), burgers_solve());
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
      kEnsembleGrid, std::make_shared<HalfIllPosed>(), initial_condition(), options);
  EXPECT_EQ(ensemble.diverged_count(), 1);
  EXPECT_TRUE(ensemble.diverged[1].item<bool>());
  EXPECT_THAT(ensemble.failures[1], HasSubstr("blew up by t ="));
  EXPECT_LT((ensemble.u[0] - reference).abs().max().item<double>(), 1e-6);
}

// Conditioned samples of a linear mean and the RBF-plus-quadratic kernel are stepped member
// by member on plain arrays (pde/plain_periodic_solve.h): the same ensemble as the batched
// tensor engine to rounding, with the same adaptive steps per member. The members are
// conditioned on Burgers' values at u0's own (u, u_x, u_xx), each with its own extra term;
// the quadratic part (prior variance 1 against the RBF part's 1e-4) carries -u u_x off them.
// Member 2 also has an added diffusion (solve/stabilised_samples.h), in plain values too;
// and the same again with a model discrepancy that changes in time (gp/discrepancy_field.h),
// which the plain engine evaluates at each stage's own time.
TEST(SpectralEnsemble, conditioned_samples_solve_on_plain_arrays_as_on_tensors) {
  const at::NoGradGuard no_grad;
  gp::LinearMean mean(gp::LinearMeanOptions{3});
  mean->set_weight(at::tensor({0.0, 0.0, 0.1}, at::kDouble));
  const gp::RbfQuadraticKernel kernel(gp::RbfQuadraticKernelOptions{3, 1.0, 1e-4, 1.0});
  const at::Tensor z = solve::spectral_root_inputs(kEnsembleGrid, initial_condition(), 3)
                           .slice(0, 0, kEnsembleGrid.points(), 8);
  const at::Tensor burgers = -z.select(1, 0) * z.select(1, 1) + 0.1 * z.select(1, 2);
  std::vector<gp::ConditionedGp> members;
  for (const double extra : {0.0, 0.02, -0.02})
    members.emplace_back(mean.ptr(), kernel.ptr(), z, burgers + extra);
  const std::shared_ptr<const gp::FunctionSamples> stabilised =
      std::make_shared<solve::StabilisedSamples>(
          std::make_shared<gp::ConditionedSamples>(std::move(members)),
          at::tensor({0.0, 0.0, 0.02}, at::kDouble));
  gp::DiscrepancyOptions changing;  // a model discrepancy that decorrelates within t_end
  changing.variance = 1e-4;
  changing.timescale = 0.5;
  const auto discrepancy = std::make_shared<gp::SamplesWithDiscrepancy>(
      stabilised, std::make_shared<gp::DiscrepancyField>(at::ones({3}, at::kDouble), 3, changing),
      at::tensor({2, 0, 1}, at::kLong));
  for (const auto& samples :
       {stabilised, std::shared_ptr<const gp::FunctionSamples>(discrepancy)}) {
    pde::Equation equation;
    equation.name = "conditioned samples";
    equation.linear = solve::linear_part(kEnsembleGrid, *samples, initial_condition());
    equation.nonlinear = std::make_shared<solve::SampledOperatorTerm>(samples, equation.linear);
    pde::SolveOptions options = burgers_solve();
    options.t_end = 2.0;
    options.tolerance = 1e-8;
    ASSERT_TRUE(pde::solves_on_plain_arrays(kEnsembleGrid, equation));
    const at::Tensor starts = initial_condition().expand({3, -1}).contiguous();
    const pde::Solution plain = pde::solve_periodic_plain(kEnsembleGrid, equation, starts, options);
    const pde::Solution batched =
        pde::solve_periodic_batched(kEnsembleGrid, equation, starts, options);
    EXPECT_LT((plain.u - batched.u).abs().max().item<double>(), 1e-10);
    EXPECT_EQ(plain.member_steps, batched.member_steps);
    EXPECT_GT((plain.u[2] - plain.u[1]).abs().max().item<double>(), 1e-3);  // members differ
  }
}

TEST(SpectralEnsemble, linear_part_of_burgers_is_its_diffusion) {
  const std::vector<double> linear = solve::linear_part(
      kEnsembleGrid, testing_operator::ExactBurgersSamples(1), initial_condition());
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
      kEnsembleGrid, samples, initial_condition(), burgers_solve(), /*conserve_mean=*/true);
  const solve::EnsembleSolution plain =
      solve::solve_spectral_ensemble(kEnsembleGrid, samples, initial_condition(), burgers_solve());
  const double mean0 = initial_condition().mean().item<double>();
  ASSERT_EQ(projected.diverged_count(), 0);
  EXPECT_LT((projected.u.mean(2) - mean0).abs().max().item<double>(), 1e-10);
  EXPECT_LT((projected.u[0] - reference_solution()).abs().max().item<double>(), 1e-6);
  EXPECT_NEAR(plain.u[0][-1].mean().item<double>() - mean0, 0.02 * 10.0, 1e-8);
}

namespace {

/// The predictor on Burgers' mean with a kernel of variance 1e-4 (members differ by about
/// 0.01 in f) and a model discrepancy, to t = 2, with `sampler` and steps to `tolerance`
/// (0: fixed).
solve::Prediction predict_share(const std::string& sampler, std::int64_t first, std::int64_t count,
                                double tolerance = 0.0) {
  const gp::SparseVariationalGp root = testing_operator::burgers_root(1e-4);
  solve::PredictionProblem problem{kEnsembleGrid, initial_condition(), burgers_solve(), nullptr};
  problem.solve.t_end = 2.0;
  problem.solve.tolerance = tolerance;
  solve::PredictorOptions options = testing_operator::five_member_options(sampler);
  options.first_member = first;
  options.member_count = count;
  return solve::predict_ensemble(*root, problem, options);
}

}  // namespace

// Members 0-2 and 3-4 predicted apart are the whole ensemble's, bit for bit: each member
// is drawn from its own seeds and solved with the posterior mean's linear part and steps of
// its own (fixed, or chosen by its own error), whatever else is in its batch
// (`mpirun -n 2 bhpm predict` gathers such shares).
TEST(SpectralEnsemble, shares_of_a_prediction_hold_the_whole_ensembles_members_bit_for_bit) {
  for (const double tolerance : {0.0, 1e-7})
    for (const std::string sampler : {"conditioned", "pathwise"}) {
      SCOPED_TRACE("tolerance " + std::to_string(tolerance));
      const solve::Prediction whole = predict_share(sampler, 0, 0, tolerance);
      const solve::Prediction first = predict_share(sampler, 0, 3, tolerance);
      const solve::Prediction rest = predict_share(sampler, 3, 0, tolerance);
      ASSERT_EQ(first.ensemble.u.size(0), 3);
      ASSERT_EQ(rest.ensemble.u.size(0), 2);
      EXPECT_EQ(whole.ensemble.left_out().sum().item<std::int64_t>(), 0) << sampler;
      EXPECT_TRUE(at::equal(at::cat({first.ensemble.u, rest.ensemble.u}), whole.ensemble.u))
          << sampler;
      EXPECT_GT((whole.ensemble.u[0] - whole.ensemble.u[4]).abs().max().item<double>(), 1e-4)
          << sampler << ": the members must differ for the test to mean anything";
      for (std::size_t s = 0; s < whole.refinement.size(); ++s) {
        const solve::MemberRefinement& part = s < 3 ? first.refinement[s] : rest.refinement[s - 3];
        EXPECT_EQ(part.conditioning_points, whole.refinement[s].conditioning_points);
        EXPECT_EQ(part.expected_variance, whole.refinement[s].expected_variance);
      }
    }
}

TEST(SpectralEnsemble, a_share_that_would_depend_on_the_other_members_is_refused) {
  EXPECT_THAT([] { predict_share("conditioned", 5, 0); },
              testing::ThrowsMessage<std::invalid_argument>(HasSubstr("members 5..5")));
  const gp::SparseVariationalGp root = testing_operator::burgers_root(1e-4);
  solve::PredictionProblem problem{kEnsembleGrid, initial_condition(), burgers_solve(), nullptr};
  solve::PredictorOptions options;
  options.samples = 4;
  options.member_count = 2;
  options.solver = "pinn";
  EXPECT_THAT([&] { solve::predict_ensemble(*root, problem, options); },
              testing::ThrowsMessage<std::invalid_argument>(HasSubstr("the spectral solver")));
}

// A member's restriction evaluates as the same function: each implementation's select, and
// the wrapper for a sample set without one (HalfIllPosed), give the whole set's rows.
TEST(SpectralEnsemble, selected_members_are_the_whole_sets_rows) {
  const gp::SparseVariationalGp root = testing_operator::burgers_root(1e-4);
  util::Rng rng(7);
  gp::PathwiseOptions pathwise;
  pathwise.features = 64;
  std::vector<std::shared_ptr<const gp::FunctionSamples>> sets = {
      std::make_shared<HalfIllPosed>(),
      std::make_shared<gp::PathwiseSamples>(*root, 3, pathwise),
      std::make_shared<gp::ConditionedSamples>(std::vector<gp::ConditionedGp>{
          gp::condition_on_inducing_draw(*root, rng), gp::condition_on_inducing_draw(*root, rng)}),
  };
  const at::Tensor members = at::tensor({1}, at::kLong);
  for (const auto& samples : sets) {
    const at::Tensor v = at::randn({samples->count(), 7, samples->dimensions()}, at::kDouble);
    const at::Tensor whole = samples->evaluate(v);
    const auto selected = gp::select_members(samples, members);
    ASSERT_EQ(selected->count(), 1);
    EXPECT_LT((selected->evaluate(v.index_select(0, members)) - whole.index_select(0, members))
                  .abs()
                  .max()
                  .item<double>(),
              1e-14);
  }
  EXPECT_THROW(gp::select_members(sets.front(), at::tensor({2}, at::kLong)), std::invalid_argument);
}
