#include "solve/predictor.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gp/conditioned_gp.h"
#include "gp/discrepancy_field.h"
#include "gp/inflated_posterior.h"
#include "gp/inflated_samples.h"
#include "gp/posterior_mean.h"
#include "pde/output_times.h"
#include "solve/bounded_ensemble.h"
#include "solve/spectral_ensemble.h"
#include "solve/stabilised_samples.h"
#include "solve/well_posedness.h"
#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::solve {

namespace {

/// The samples' model discrepancy delta_s (gp/discrepancy_field.h) on the root kernel's
/// lengthscales; null when tau^2 = 0.
std::shared_ptr<const gp::DiscrepancyField> discrepancy_field(
    const gp::SparseVariationalGpImpl& root, const PredictorOptions& options) {
  if (options.discrepancy_variance == 0.0) return nullptr;
  gp::DiscrepancyOptions field;
  field.variance = options.discrepancy_variance;
  field.timescale = options.discrepancy_timescale;
  field.inputs = options.discrepancy_order + 1;  // v = (u, u_x, ..): orders 0..m
  field.seed = options.seed;
  return std::make_shared<const gp::DiscrepancyField>(root.kernel()->input_scales(),
                                                      options.samples, field);
}

using Solver = std::function<EnsembleSolution(std::shared_ptr<const gp::FunctionSamples>)>;

/// `linear`: the c of the linear part that ETDRK4 treats exactly (solve/spectral_ensemble.h).
Solver spectral_solver(const PredictionProblem& problem, const PredictorOptions& options,
                       const std::vector<double>& linear, const PredictionProgress&) {
  const bool conserve_mean = options.conserve_mean;
  return [&problem, conserve_mean, linear](std::shared_ptr<const gp::FunctionSamples> samples) {
    return solve_spectral_ensemble(problem.grid, std::move(samples), problem.u0, problem.solve,
                                   conserve_mean, linear);
  };
}

/// PINN solves of `problem` (periodic or on an interval), progress every tenth of the run.
Solver pinn_problem_solver(PinnProblem problem, const PredictorOptions& options,
                           const PredictionProgress& progress) {
  PinnOptions pinn = options.pinn;
  pinn.seed = options.seed;
  return [problem = std::move(problem), pinn,
          progress](std::shared_ptr<const gp::FunctionSamples> samples) {
    const auto report = [&](std::int64_t iteration, const PinnLoss& loss) {
      if (progress)
        progress("PINN iteration " + std::to_string(iteration) + ": median member loss " +
                 util::format_scientific(loss.total.nanmedian().item<double>(), 3));
    };
    const std::int64_t every = std::max<std::int64_t>(1, pinn.iterations / 10);
    return solve_pinn_ensemble(problem, *samples, pinn, report, every);
  };
}

Solver pinn_solver(const PredictionProblem& problem, const PredictorOptions& options,
                   const std::vector<double>& /*linear*/, const PredictionProgress& progress) {
  return pinn_problem_solver(
      {PinnDomain::periodic(problem.grid), problem.u0, pde::output_times(problem.solve)}, options,
      progress);
}

Prediction predict_pathwise(const gp::SparseVariationalGpImpl& root, const PredictionProblem&,
                            const PredictorOptions& options, const Solver& solve,
                            const PredictionProgress&) {
  gp::PathwiseOptions pathwise = options.pathwise;
  pathwise.seed = options.seed;
  pathwise.first_sample = options.first_member;
  const std::int64_t count = members_solved(options);
  std::shared_ptr<const gp::FunctionSamples> samples =
      std::make_shared<gp::PathwiseSamples>(root, count, pathwise);
  if (auto discrepancy = discrepancy_field(root, options))
    samples = std::make_shared<gp::SamplesWithDiscrepancy>(
        std::move(samples), std::move(discrepancy),
        at::arange(options.first_member, options.first_member + count, at::kLong));
  Prediction prediction;
  prediction.ensemble = solve(std::move(samples));
  return prediction;
}

/// Progress lines of Algorithm 1: one per sample and round, one per round with the time.
RefinementProgress refinement_progress(const RefinementOptions& options,
                                       const PredictionProgress& progress) {
  if (!progress) return {};
  const auto member = [&options, progress](std::size_t sample, const RefinementRound& round) {
    progress("sample " + std::to_string(sample) +
             ": L_c = " + util::format_scientific(round.expected_variance, 3) + " (tolerance " +
             util::format_scientific(options.tolerance, 2) + ") with " +
             std::to_string(round.conditioning_points) + " conditioning points");
  };
  const auto round = [&options, progress](const RefinementStatus& status) {
    std::string line = "round " + std::to_string(status.round + 1) + " of at most " +
                       std::to_string(options.max_rounds) + ": " + std::to_string(status.refining) +
                       " of " + std::to_string(status.solved) + " samples refine on, median L_c " +
                       util::format_scientific(status.median_expected_variance, 3) + "; " +
                       util::format_significant(status.elapsed_seconds, 3) + " s elapsed";
    if (status.budget_reached)
      line += "; time budget of " + util::format_significant(options.time_budget, 3) +
              " s reached: they stop unconverged";
    else if (status.refining > 0)
      line += ", at most about " + util::format_significant(status.seconds_left, 3) + " s left";
    progress(line);
  };
  return {member, round};
}

Prediction predict_conditioned(const gp::SparseVariationalGpImpl& root,
                               const PredictionProblem& problem, const PredictorOptions& options,
                               const Solver& solve, const PredictionProgress& progress) {
  const std::int64_t count = members_solved(options);
  std::vector<gp::ConditionedGp> starts;
  for (std::int64_t s = options.first_member; s < options.first_member + count; ++s) {
    util::Rng rng(
        util::derive_seed(options.seed, "operator_sample", static_cast<std::uint64_t>(s)));
    starts.push_back(gp::condition_on_inducing_draw(root, rng));
  }
  RefinementOptions refinement = options.refinement;
  refinement.seed = options.seed;
  refinement.first_member = options.first_member;
  const RefinementProgress report = refinement_progress(refinement, progress);
  const std::int64_t dimensions = root.kernel()->dimensions();
  const WindowProblem* window = problem.window.get();
  StepCount steps;  // over the solves of every round
  const std::vector<RefinedSample> members = refine_operator_samples(
      std::move(starts), counting_steps(solve, steps),
      [&](const at::Tensor& u) {
        return window ? bounded_root_inputs(window->grid, u, dimensions)
                      : spectral_root_inputs(problem.grid, u, dimensions);
      },
      refinement, report, discrepancy_field(root, options));
  Prediction prediction;
  std::vector<at::Tensor> solutions;
  EnsembleSolution& ensemble = prediction.ensemble;
  ensemble.diverged = at::zeros({count}, at::kBool);
  ensemble.rejected = at::zeros({count}, at::kBool);
  ensemble.growth = at::full({count}, NAN, at::kDouble);
  ensemble.added_diffusion = at::zeros({count}, at::kDouble);
  for (std::size_t s = 0; s < members.size(); ++s) {
    const RefinedSample& member = members[s];
    const auto row = static_cast<std::int64_t>(s);
    prediction.refinement.push_back(
        {member.operator_sample.size(),
         member.rounds.empty() ? NAN : member.rounds.back().expected_variance, member.converged,
         member.out_of_budget, member.out_of_reach});
    solutions.push_back(member.solution);
    ensemble.failures.push_back(member.failure);
    ensemble.growth[row] = member.growth;
    ensemble.added_diffusion[row] = member.added_diffusion;
    if (member.rejected)
      ensemble.rejected[row] = true;
    else if (!member.failure.empty())
      ensemble.diverged[row] = true;
  }
  ensemble.x = window ? window->grid.x() : problem.grid.x();
  ensemble.t = window ? window->output_times() : pde::output_times(problem.solve);
  ensemble.u = at::stack(solutions);
  ensemble.steps = steps.steps;
  ensemble.rejected_steps = steps.rejected_steps;
  return prediction;
}

/// The samples of `samples` to solve and what became of the ill-posed ones: with `repair`,
/// each ill-posed sample with a finite growth gets its least stabilising diffusion
/// (solve/stabilised_samples.h); the others stay ill-posed and are rejected.
struct CheckedSamples {
  std::shared_ptr<const gp::FunctionSamples> samples;
  at::Tensor rejected;   ///< [S] bool
  at::Tensor diffusion;  ///< [S] a_s >= 0, 0 where not repaired
};

CheckedSamples repair_or_reject(std::shared_ptr<const gp::FunctionSamples> samples,
                                const WellPosedness& posedness, bool repair) {
  CheckedSamples checked{std::move(samples), posedness.ill_posed, at::zeros_like(posedness.growth)};
  if (!repair) return checked;
  const at::Tensor repairable = posedness.ill_posed & at::isfinite(posedness.diffusion);
  if (!repairable.any().item<bool>()) return checked;
  checked.diffusion = at::where(repairable, posedness.diffusion, at::zeros_like(posedness.growth));
  checked.rejected = posedness.ill_posed & ~repairable;
  checked.samples = std::make_shared<StabilisedSamples>(checked.samples, checked.diffusion);
  return checked;
}

/// The check of every sample's linearisation along the problem's u0.
using PosednessCheck = std::function<WellPosedness(const gp::FunctionSamples&)>;

/// `solve` that first checks every sample with `check` (solve/well_posedness.h), repairs
/// the ill-posed ones (`repair`) and marks those it cannot or may not repair rejected: their
/// rows NaN, the reason in failures, never averaged in. The batch is solved whole (members
/// are independent); a rejected member that also blew up counts as rejected.
Solver with_well_posedness_check(Solver solve, PosednessCheck check, bool repair) {
  return [solve = std::move(solve), check = std::move(check),
          repair](std::shared_ptr<const gp::FunctionSamples> samples) {
    const WellPosedness posedness = check(*samples);
    const CheckedSamples checked = repair_or_reject(std::move(samples), posedness, repair);
    EnsembleSolution solved = solve(checked.samples);
    solved.growth = posedness.growth.cpu();  // the ensemble's records live on the CPU
    solved.rejected = checked.rejected.cpu();
    solved.added_diffusion = checked.diffusion.cpu();
    for (std::int64_t i = 0; i < checked.samples->count(); ++i) {
      if (!solved.rejected[i].item<bool>()) continue;
      solved.u[i].fill_(NAN);
      solved.diverged[i] = false;
      solved.failures[static_cast<std::size_t>(i)] =
          "ill-posed: its linearisation about u0 grows the fastest resolved wave by " +
          util::format_significant(solved.growth[i].item<double>(), 3) +
          " e-folds over the horizon (limit " +
          util::format_significant(posedness.limit_e_folds, 3) + ")";
    }
    return solved;
  };
}

/// The check's options for a horizon t_end and the solver's dealiasing.
WellPosednessOptions posedness_options(double t_end, const std::string& dealias,
                                       const PredictorOptions& options) {
  WellPosednessOptions check;
  check.t_end = t_end;
  check.dealias = dealias;
  check.amplification_limit = options.max_amplification;
  validate(check);
  return check;
}

using SolverFactory = Solver (*)(const PredictionProblem&, const PredictorOptions&,
                                 const std::vector<double>&, const PredictionProgress&);
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

at::Tensor WindowProblem::output_times() const {
  return pde::uniform_output_times(solve.t_end, solve.output_dt, "window");
}

void validate(const PredictorOptions& options) {
  const std::string owner = "predict";
  util::require_at_least(options.samples, 1, owner, "samples");
  util::require_listed(options.sampler, sampler_names(), owner, "sampler");
  util::require_listed(options.solver, solver_names(), owner, "solver");
  util::require_listed(options.ill_posed, ill_posed_treatments(), owner, "ill_posed");
  util::validate_nested(owner, "pathwise.", [&] { gp::validate(options.pathwise); });
  util::validate_nested(owner, "refinement.", [&] { validate(options.refinement); });
  util::validate_nested(owner, "pinn.", [&] { validate(options.pinn); });
  util::require_non_negative(options.discrepancy_variance, owner, "discrepancy_variance");
  util::require_non_negative(options.discrepancy_timescale, owner, "discrepancy_timescale");
  util::require_at_least(options.discrepancy_order, 0, owner, "discrepancy_order");
  util::require_positive(options.spread_inflation, owner, "spread_inflation");
  util::require_option(options.spread_inflation == 1.0 || options.discrepancy_variance == 0.0,
                       owner, "spread_inflation",
                       "is the other form of the model discrepancy: give it or "
                       "discrepancy_variance, not both",
                       util::option_value(options.spread_inflation));
  util::require_above(options.max_amplification, 1.0, owner, "max_amplification");
  if (options.first_member < 0 || options.first_member >= options.samples ||
      options.member_count < 0 || options.first_member + options.member_count > options.samples)
    throw std::invalid_argument(
        "predict: members " + std::to_string(options.first_member) + ".." +
        std::to_string(options.first_member + std::max<std::int64_t>(options.member_count, 1) - 1) +
        " asked for, of samples 0.." + std::to_string(options.samples - 1));
}

namespace {

/// Throws std::invalid_argument for bad options, a u0 that does not fit the grid, or a share
/// of the ensemble whose members would depend on the others in their batch.
void validate(const PredictionProblem& problem, const PredictorOptions& options) {
  validate(options);
  if (!problem.u0.defined() || problem.u0.dim() != 1 || problem.u0.size(0) != problem.grid.points())
    throw std::invalid_argument("predict: the initial condition must have " +
                                std::to_string(problem.grid.points()) + " grid values");
  if (members_solved(options) == options.samples) return;
  const std::string share = "predict: a share of the ensemble (members " +
                            std::to_string(options.first_member) + ".." +
                            std::to_string(options.first_member + members_solved(options) - 1) +
                            " of " + std::to_string(options.samples) + ") needs ";
  if (options.solver != "spectral")
    throw std::invalid_argument(share + "the spectral solver (the PINN solver was asked for)");
  if (options.refinement.time_budget > 0.0)
    throw std::invalid_argument(share +
                                "predict.time_budget = 0: a budget stops the rounds by "
                                "the wall time of the whole batch");
}

/// The solver of options.solver, splitting off the linear part c = `linear`, wrapped in the
/// well-posedness check.
Solver checked_solver(const PredictionProblem& problem, const PredictorOptions& options,
                      const std::vector<double>& linear, const PredictionProgress& progress) {
  const SolverFactory make_solver =
      util::find_listed(solver_table(), options.solver, "predict", "solver");
  const WellPosednessOptions check = posedness_options(
      problem.solve.t_end, sample_dealiasing(problem.solve.stepper.dealias), options);
  return with_well_posedness_check(
      make_solver(problem, options, linear, progress),
      [&problem, check](const gp::FunctionSamples& samples) {
        return check_well_posedness(samples, problem.grid, problem.u0, check);
      },
      options.ill_posed == "repair");
}

/// `solve` under the samples with their spread about the root's posterior mean scaled by
/// sqrt(kappa) (gp/inflated_samples.h) when kappa < 1; `solve` itself otherwise.
Solver with_narrowed_spread(Solver solve, const gp::SparseVariationalGpImpl& root, double kappa) {
  if (kappa >= 1.0) return solve;
  return
      [solve = std::move(solve), &root, kappa](std::shared_ptr<const gp::FunctionSamples> samples) {
        return solve(std::make_shared<gp::InflatedSamples>(std::move(samples), root, kappa));
      };
}

/// `solve` under the samples moved by `shift` (solve/shifted_samples.h); `solve` itself
/// without one.
Solver with_shift(Solver solve, std::shared_ptr<const OperatorShift> shift) {
  if (!shift) return solve;
  return [solve = std::move(solve),
          shift = std::move(shift)](std::shared_ptr<const gp::FunctionSamples> samples) {
    return solve(std::make_shared<ShiftedSamples>(std::move(samples), shift));
  };
}

/// The root's posterior mean, moved by `shift` when there is one: what the linear part is
/// taken from.
std::shared_ptr<const gp::FunctionSamples> shifted_mean(
    const gp::SparseVariationalGpImpl& root, const std::shared_ptr<const OperatorShift>& shift) {
  auto mean = std::make_shared<const gp::PosteriorMean>(root);
  if (!shift) return mean;
  return std::make_shared<const ShiftedSamples>(std::move(mean), shift);
}

/// The window's solver: options.solver "spectral" is Chebyshev collocation
/// (solve/bounded_ensemble.h), "pinn" the PINN under the window's conditions; throws for
/// options a window cannot take.
Solver window_solver(const WindowProblem& window, const PredictorOptions& options,
                     const PredictionProgress& progress) {
  validate(options);
  if (members_solved(options) != options.samples)
    throw std::invalid_argument("predict: a window's ensemble is solved by one process");
  if (!window.u0.defined() || window.u0.dim() != 1 || window.u0.size(0) != window.grid.points())
    throw std::invalid_argument("predict: the window's initial condition must have " +
                                std::to_string(window.grid.points()) + " values");
  const WellPosednessOptions check = posedness_options(window.solve.t_end, "none", options);
  Solver solve = [&window](std::shared_ptr<const gp::FunctionSamples> samples) {
    return solve_bounded_ensemble(window.grid, std::move(samples), window.u0, window.conditions,
                                  window.solve);
  };
  if (options.solver == "pinn")
    solve = pinn_problem_solver(
        {PinnDomain::bounded(window.grid, window.conditions), window.u0, window.output_times()},
        options, progress);
  return with_well_posedness_check(
      std::move(solve),
      [&window, check](const gp::FunctionSamples& samples) {
        return check_well_posedness(samples, window.grid, window.u0, check);
      },
      options.ill_posed == "repair");
}

/// The periodic problem's solver: options.solver with the posterior mean's linear part split
/// off, behind the well-posedness check.
Solver periodic_solver(const gp::SparseVariationalGpImpl& root, const PredictionProblem& problem,
                       const PredictorOptions& options, const PredictionProgress& progress) {
  validate(problem, options);
  const std::vector<double> linear =
      linear_part(problem.grid, *shifted_mean(root, options.shift), problem.u0);
  return checked_solver(problem, options, linear, progress);
}

}  // namespace

Prediction predict_ensemble(const gp::SparseVariationalGpImpl& root,
                            const PredictionProblem& problem, const PredictorOptions& options,
                            const PredictionProgress& progress) {
  const at::NoGradGuard no_grad;
  const double kappa = options.spread_inflation;  // the rule: PredictorOptions::spread_inflation
  // Spread scaled first, then shifted: g moves the centre, not the spread.
  const Solver solve = with_narrowed_spread(
      with_shift(problem.window ? window_solver(*problem.window, options, progress)
                                : periodic_solver(root, problem, options, progress),
                 options.shift),
      root, kappa);
  const Sampler sample = util::find_listed(sampler_table(), options.sampler, "predict", "sampler");
  gp::SparseVariationalGp drawn_from = nullptr;
  if (kappa > 1.0) drawn_from = gp::inflated_posterior(root, kappa);
  Prediction prediction =
      sample(drawn_from ? *drawn_from : root, problem, options, solve, progress);
  prediction.spread_inflation = options.spread_inflation;
  prediction.discrepancy_variance = options.discrepancy_variance;
  prediction.discrepancy_timescale = options.discrepancy_timescale;
  prediction.discrepancy_order = options.discrepancy_order;
  prediction.conserve_mean =
      options.conserve_mean && options.solver == "spectral" && !problem.window;
  return prediction;
}

Prediction predict_with_samples(std::shared_ptr<const gp::FunctionSamples> samples,
                                const PredictionProblem& problem, const PredictorOptions& options,
                                const PredictionProgress& progress) {
  if (!samples) throw std::invalid_argument("predict: no operator samples given");
  const at::NoGradGuard no_grad;
  PredictorOptions all = options;  // every given sample is solved
  all.first_member = 0;
  all.member_count = 0;
  Solver solve;
  if (problem.window) {
    solve = window_solver(*problem.window, all, progress);
  } else {
    validate(problem, all);
    const std::vector<double> linear = linear_part(problem.grid, *samples, problem.u0);
    solve = checked_solver(problem, all, linear, progress);
  }
  Prediction prediction;
  prediction.ensemble = solve(std::move(samples));
  prediction.conserve_mean =
      options.conserve_mean && options.solver == "spectral" && !problem.window;
  return prediction;
}

std::int64_t members_solved(const PredictorOptions& options) {
  return options.member_count > 0 ? options.member_count : options.samples - options.first_member;
}

const std::vector<std::string>& sampler_names() {
  static const std::vector<std::string> names = util::names_of(sampler_table());
  return names;
}

const std::vector<std::string>& ill_posed_treatments() {
  static const std::vector<std::string> names = {"repair", "reject"};
  return names;
}

const std::vector<std::string>& solver_names() {
  static const std::vector<std::string> names = util::names_of(solver_table());
  return names;
}

namespace {

/// sqrt(var q(f(v))) at the root inputs v [P, D] of u, shaped as u.
at::Tensor standard_deviation_at(const gp::SparseVariationalGpImpl& root, const at::Tensor& v,
                                 const at::Tensor& u) {
  return root.marginals(v).variance.sqrt().view(u.sizes()).cpu();
}

}  // namespace

at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::PeriodicGrid& grid, const at::Tensor& u) {
  const at::NoGradGuard no_grad;
  return standard_deviation_at(root, spectral_root_inputs(grid, u, root.kernel()->dimensions()), u);
}

at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const pde::ChebyshevGrid& grid, const at::Tensor& u) {
  const at::NoGradGuard no_grad;
  return standard_deviation_at(root, bounded_root_inputs(grid, u, root.kernel()->dimensions()), u);
}

at::Tensor operator_standard_deviation(const gp::SparseVariationalGpImpl& root,
                                       const PredictionProblem& problem, const at::Tensor& u) {
  return problem.window ? operator_standard_deviation(root, problem.window->grid, u)
                        : operator_standard_deviation(root, problem.grid, u);
}

double fraction_outside_coverage(const at::Tensor& operator_std, double prior_variance) {
  const at::Tensor inside = operator_std.square() <= 0.1 * prior_variance;  // false for NaN
  return 1.0 - inside.to(at::kDouble).mean().item<double>();
}

}  // namespace bhpm::solve
