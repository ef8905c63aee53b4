#include "solve/predictor.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gp/conditioned_gp.h"
#include "pde/random.h"
#include "solve/spectral_ensemble.h"

namespace bhpm::solve {

namespace {

using Solver = std::function<EnsembleSolution(std::shared_ptr<const gp::FunctionSamples>)>;

/// "<prefix><value in %.3e><suffix>".
std::string with_number(const std::string& prefix, double value, const std::string& suffix) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return prefix + text + suffix;
}

Solver make_solver(const PredictionProblem& problem, const PredictorOptions& options,
                   const PredictionProgress& progress) {
  if (options.solver == "spectral")
    return [&problem](std::shared_ptr<const gp::FunctionSamples> samples) {
      return solve_spectral_ensemble(problem.grid, std::move(samples), problem.u0, problem.solve);
    };
  PinnOptions pinn = options.pinn;
  pinn.seed = options.seed;
  return [&problem, pinn, progress](std::shared_ptr<const gp::FunctionSamples> samples) {
    const PinnProblem pinn_problem{problem.grid, problem.u0, pde::output_times(problem.solve)};
    const auto report = [&](std::int64_t iteration, const PinnLoss& loss) {
      if (progress)
        progress(with_number("PINN iteration " + std::to_string(iteration) + ": median member loss ",
                             loss.total.nanmedian().item<double>(), ""));
    };
    const std::int64_t every = std::max<std::int64_t>(1, pinn.iterations / 10);
    return solve_pinn_ensemble(pinn_problem, *samples, pinn, report, every);
  };
}

Prediction predict_pathwise(const gp::SparseVariationalGpImpl& root, const PredictorOptions& options,
                            const Solver& solve) {
  gp::PathwiseOptions pathwise = options.pathwise;
  pathwise.seed = options.seed;
  return {solve(std::make_shared<gp::PathwiseSamples>(root, options.samples, pathwise)), {}};
}

Prediction predict_conditioned(const gp::SparseVariationalGpImpl& root,
                               const PredictionProblem& problem, const PredictorOptions& options,
                               const Solver& solve, const PredictionProgress& progress) {
  std::vector<gp::ConditionedGp> starts;
  for (std::int64_t s = 0; s < options.samples; ++s) {
    pde::Rng rng(pde::derive_seed(options.seed, "operator_sample", static_cast<std::uint64_t>(s)));
    starts.push_back(gp::condition_on_inducing_draw(root, rng));
  }
  RefinementOptions refinement = options.refinement;
  refinement.seed = options.seed;
  const auto report = [&](std::size_t sample, const RefinementRound& round) {
    if (progress)
      progress(with_number("sample " + std::to_string(sample) + ": L_c = ", round.expected_variance,
                           " with " + std::to_string(round.conditioning_points) + " conditioning points"));
  };
  const std::int64_t dimensions = root.kernel()->dimensions();
  Prediction prediction;
  prediction.refinement = refine_operator_samples(
      std::move(starts), [&](std::shared_ptr<const gp::ConditionedSamples> s) { return solve(s); },
      [&](const at::Tensor& u) { return spectral_root_inputs(problem.grid, u, dimensions); },
      refinement, report);
  std::vector<at::Tensor> solutions;
  EnsembleSolution& ensemble = prediction.ensemble;
  ensemble.diverged = at::zeros({options.samples}, at::kBool);
  for (std::size_t s = 0; s < prediction.refinement.size(); ++s) {
    const RefinedSample& member = prediction.refinement[s];
    solutions.push_back(member.solution);
    ensemble.failures.push_back(member.failure);
    if (!member.failure.empty()) ensemble.diverged[static_cast<std::int64_t>(s)] = true;
  }
  ensemble.x = problem.grid.x();
  ensemble.t = pde::output_times(problem.solve);
  ensemble.u = at::stack(solutions);
  return prediction;
}

}  // namespace

void validate(const PredictorOptions& options) {
  if (options.samples < 1)
    throw std::invalid_argument("predict: samples must be >= 1 (got " +
                                std::to_string(options.samples) + ")");
  if (options.sampler != "conditioned" && options.sampler != "pathwise")
    throw std::invalid_argument("predict: sampler must be \"conditioned\" or \"pathwise\" (got \"" +
                                options.sampler + "\")");
  if (options.solver != "spectral" && options.solver != "pinn")
    throw std::invalid_argument("predict: solver must be \"spectral\" or \"pinn\" (got \"" +
                                options.solver + "\")");
  gp::validate(options.pathwise);
  validate(options.refinement);
  validate(options.pinn);
}

Prediction predict_ensemble(const gp::SparseVariationalGpImpl& root, const PredictionProblem& problem,
                            const PredictorOptions& options, const PredictionProgress& progress) {
  validate(options);
  if (!problem.u0.defined() || problem.u0.dim() != 1 || problem.u0.size(0) != problem.grid.points())
    throw std::invalid_argument("predict: the initial condition must have " +
                                std::to_string(problem.grid.points()) + " grid values");
  const at::NoGradGuard no_grad;
  const Solver solve = make_solver(problem, options, progress);
  return options.sampler == "pathwise" ? predict_pathwise(root, options, solve)
                                       : predict_conditioned(root, problem, options, solve, progress);
}

at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::PeriodicGrid& grid, const at::Tensor& u) {
  const at::NoGradGuard no_grad;
  const at::Tensor v = spectral_root_inputs(grid, u, root.kernel()->dimensions());
  return root.marginals(v).variance.sqrt().view(u.sizes());
}

}  // namespace bhpm::solve
