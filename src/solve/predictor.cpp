#include "solve/predictor.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gp/conditioned_gp.h"
#include "solve/spectral_ensemble.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/random.h"

namespace bhpm::solve {

namespace {

using Solver = std::function<EnsembleSolution(std::shared_ptr<const gp::FunctionSamples>)>;

Solver spectral_solver(const PredictionProblem& problem, const PredictorOptions&,
                       const PredictionProgress&) {
  return [&problem](std::shared_ptr<const gp::FunctionSamples> samples) {
    return solve_spectral_ensemble(problem.grid, std::move(samples), problem.u0, problem.solve);
  };
}

Solver pinn_solver(const PredictionProblem& problem, const PredictorOptions& options,
                   const PredictionProgress& progress) {
  PinnOptions pinn = options.pinn;
  pinn.seed = options.seed;
  return [&problem, pinn, progress](std::shared_ptr<const gp::FunctionSamples> samples) {
    const PinnProblem pinn_problem{problem.grid, problem.u0, pde::output_times(problem.solve)};
    const auto report = [&](std::int64_t iteration, const PinnLoss& loss) {
      if (progress)
        progress("PINN iteration " + std::to_string(iteration) + ": median member loss " +
                 util::format_scientific(loss.total.nanmedian().item<double>(), 3));
    };
    const std::int64_t every = std::max<std::int64_t>(1, pinn.iterations / 10);
    return solve_pinn_ensemble(pinn_problem, *samples, pinn, report, every);
  };
}

Prediction predict_pathwise(const gp::SparseVariationalGpImpl& root, const PredictionProblem&,
                            const PredictorOptions& options, const Solver& solve,
                            const PredictionProgress&) {
  gp::PathwiseOptions pathwise = options.pathwise;
  pathwise.seed = options.seed;
  return {solve(std::make_shared<gp::PathwiseSamples>(root, options.samples, pathwise)), {}};
}

Prediction predict_conditioned(const gp::SparseVariationalGpImpl& root,
                               const PredictionProblem& problem, const PredictorOptions& options,
                               const Solver& solve, const PredictionProgress& progress) {
  std::vector<gp::ConditionedGp> starts;
  for (std::int64_t s = 0; s < options.samples; ++s) {
    util::Rng rng(
        util::derive_seed(options.seed, "operator_sample", static_cast<std::uint64_t>(s)));
    starts.push_back(gp::condition_on_inducing_draw(root, rng));
  }
  RefinementOptions refinement = options.refinement;
  refinement.seed = options.seed;
  const auto report = [&](std::size_t sample, const RefinementRound& round) {
    if (progress)
      progress("sample " + std::to_string(sample) +
               ": L_c = " + util::format_scientific(round.expected_variance, 3) + " with " +
               std::to_string(round.conditioning_points) + " conditioning points");
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

using SolverFactory = Solver (*)(const PredictionProblem&, const PredictorOptions&,
                                 const PredictionProgress&);
using Sampler = Prediction (*)(const gp::SparseVariationalGpImpl&, const PredictionProblem&,
                               const PredictorOptions&, const Solver&, const PredictionProgress&);

/// The solvers and samplers, by name: the one table of each that the names, the checks
/// and the dispatch read.
const util::NameTable<SolverFactory>& solver_table() {
  static const util::NameTable<SolverFactory> table = {{"spectral", spectral_solver},
                                                       {"pinn", pinn_solver}};
  return table;
}

const util::NameTable<Sampler>& sampler_table() {
  static const util::NameTable<Sampler> table = {{"conditioned", predict_conditioned},
                                                 {"pathwise", predict_pathwise}};
  return table;
}

}  // namespace

void validate(const PredictorOptions& options) {
  if (options.samples < 1)
    throw std::invalid_argument("predict: samples must be >= 1 (got " +
                                std::to_string(options.samples) + ")");
  util::require_listed(options.sampler, sampler_names(), "predict", "sampler");
  util::require_listed(options.solver, solver_names(), "predict", "solver");
  gp::validate(options.pathwise);
  validate(options.refinement);
  validate(options.pinn);
}

Prediction predict_ensemble(const gp::SparseVariationalGpImpl& root,
                            const PredictionProblem& problem, const PredictorOptions& options,
                            const PredictionProgress& progress) {
  validate(options);
  if (!problem.u0.defined() || problem.u0.dim() != 1 || problem.u0.size(0) != problem.grid.points())
    throw std::invalid_argument("predict: the initial condition must have " +
                                std::to_string(problem.grid.points()) + " grid values");
  const at::NoGradGuard no_grad;
  const SolverFactory make_solver =
      util::find_listed(solver_table(), options.solver, "predict", "solver");
  const Sampler sample = util::find_listed(sampler_table(), options.sampler, "predict", "sampler");
  return sample(root, problem, options, make_solver(problem, options, progress), progress);
}

const std::vector<std::string>& sampler_names() {
  static const std::vector<std::string> names = util::names_of(sampler_table());
  return names;
}

const std::vector<std::string>& solver_names() {
  static const std::vector<std::string> names = util::names_of(solver_table());
  return names;
}

at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::PeriodicGrid& grid, const at::Tensor& u) {
  const at::NoGradGuard no_grad;
  const at::Tensor v = spectral_root_inputs(grid, u, root.kernel()->dimensions());
  return root.marginals(v).variance.sqrt().view(u.sizes());
}

}  // namespace bhpm::solve
