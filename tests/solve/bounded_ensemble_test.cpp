// Operator samples on an interval: an ensemble of heat equations u_t = c_s u_xx with walls
// at 0 and pi, each member against its exact decay exp(-c_s t) sin x; a member with c_s < 0
// (backward diffusion) dropped as ill-posed while the others are solved; conditions that fit
// no member refused with the count they need; samples given whole (a distilled equation's)
// solved on a window by solve::predict_with_samples.

#include <ATen/ATen.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "pde/term_library.h"
#include "solve/bounded_ensemble.h"
#include "solve/polynomial_samples.h"
#include "solve/predictor.h"

using namespace bhpm;
using ::testing::HasSubstr;

namespace {

/// Samples u_t = c_s u_xx over the degree-1 library of (u, u_x, u_xx).
std::shared_ptr<const solve::PolynomialSamples> diffusions(const std::vector<double>& c) {
  const pde::TermLibrary library = pde::make_term_library({"u", "u_x", "u_xx"}, 1);
  at::Tensor xi = at::zeros({static_cast<std::int64_t>(c.size()), library.size()}, at::kDouble);
  for (std::size_t s = 0; s < c.size(); ++s)
    xi[static_cast<std::int64_t>(s)][library.find("u_xx")] = c[s];
  return std::make_shared<solve::PolynomialSamples>(library, xi);
}

pde::BoundaryConditions walls() {
  const auto zero = [](double) { return 0.0; };
  return {{pde::BoundaryCondition::dirichlet(zero, "0")},
          {pde::BoundaryCondition::dirichlet(zero, "0")}};
}

}  // namespace

TEST(BoundedEnsemble, each_sample_decays_at_its_own_rate_and_backward_diffusion_is_dropped) {
  const pde::ChebyshevGrid grid(0.0, M_PI, 20);
  pde::BoundedSolveOptions options;
  options.t_end = 2.0;
  options.output_dt = 0.5;
  const std::vector<double> c = {0.05, 0.1, 0.2, -0.1};
  const solve::EnsembleSolution ensemble =
      solve::solve_bounded_ensemble(grid, diffusions(c), at::sin(grid.x()), walls(), options);
  ASSERT_EQ(ensemble.u.sizes(), (at::IntArrayRef{4, 5, 21}));
  for (std::int64_t s = 0; s < 3; ++s) {
    const at::Tensor exact =
        at::exp(-c[s] * ensemble.t).unsqueeze(1) * at::sin(grid.x()).unsqueeze(0);
    EXPECT_LT((ensemble.u[s] - exact).abs().max().item<double>(), 1e-6) << "member " << s;
    EXPECT_FALSE(ensemble.diverged[s].item<bool>());
  }
  EXPECT_TRUE(ensemble.diverged[3].item<bool>());
  EXPECT_THAT(ensemble.failures[3], HasSubstr("backward diffusion"));
  EXPECT_TRUE(at::isnan(ensemble.u[3]).all().item<bool>());

  // One wall only: no member of u_t = c u_xx can take it.
  pde::BoundaryConditions one_wall = walls();
  one_wall.right.clear();
  EXPECT_THAT(
      [&] {
        solve::solve_bounded_ensemble(grid, diffusions({0.1, 0.2}), at::sin(grid.x()), one_wall,
                                      options);
      },
      ::testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("needs 1 condition at the right end")));
}

TEST(BoundedEnsemble, samples_given_whole_are_solved_on_the_problems_window) {
  auto window = std::make_shared<solve::WindowProblem>();
  window->grid = pde::ChebyshevGrid(0.0, M_PI, 20);
  window->u0 = at::sin(window->grid.x());
  window->conditions = walls();
  window->solve.t_end = 2.0;
  window->solve.output_dt = 0.5;
  solve::PredictionProblem problem;
  problem.window = window;
  solve::PredictorOptions options;
  options.samples = 2;
  const std::vector<double> c = {0.05, 0.2};
  const solve::Prediction prediction = solve::predict_with_samples(diffusions(c), problem, options);
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  ASSERT_EQ(ensemble.u.sizes(), (at::IntArrayRef{2, 5, 21}));
  EXPECT_TRUE(ensemble.x.equal(window->grid.x()));
  EXPECT_FALSE(prediction.conserve_mean);
  for (std::int64_t s = 0; s < 2; ++s) {
    const at::Tensor exact =
        at::exp(-c[s] * ensemble.t).unsqueeze(1) * at::sin(window->grid.x()).unsqueeze(0);
    EXPECT_LT((ensemble.u[s] - exact).abs().max().item<double>(), 1e-6) << "member " << s;
  }
}
