#include "pipeline/system_prediction.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "gp/pathwise_samples.h"
#include "gp/posterior_mean.h"
#include "pde/box_partials.h"
#include "pde/system_well_posedness.h"
#include "solve/ensemble_solution.h"
#include "solve/ensemble_statistics.h"
#include "solve/sampled_operator.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::pipeline {

void validate(const SystemPredictionOptions& options) {
  util::require_at_least(options.samples, 1, "predict", "samples");
  util::require_at_least(options.features, 1, "predict", "features");
  util::require_above(options.max_amplification, 1.0, "predict", "max_amplification");
  for (const double kappa : options.spread_factors)
    util::require_positive(kappa, "predict", "spread factor (calibrated kappa)");
  pde::validate(options.solve);
}

namespace {

using Functions = std::shared_ptr<const gp::FunctionSamples>;

/// c [q][D]: each field's function's Jacobian averaged over u0's root inputs v [P, D].
std::vector<std::vector<double>> jacobians(const std::vector<Functions>& functions,
                                           const at::Tensor& v) {
  std::vector<std::vector<double>> c;
  for (const Functions& f : functions) c.push_back(solve::average_jacobian(*f, v.unsqueeze(0)));
  return c;
}

/// The system sum_j c_ij v_j per field, with no nonlinear part.
pde::FieldSystem linear_system(const pde::FieldSystem& learned,
                               const std::vector<pde::Partial>& partials,
                               const std::vector<std::vector<double>>& c) {
  pde::FieldSystem system = learned;
  system.name = "learned";
  for (std::size_t i = 0; i < c.size(); ++i) {
    system.equations[i] = {};
    for (std::size_t j = 0; j < partials.size(); ++j)
      if (c[i][j] != 0.0) system.equations[i].linear.push_back({partials[j], c[i][j]});
  }
  return system;
}

/// N_i(v) = f_i(v) - sum_j c_ij v_j with f_i one function per field (count 1), on plain
/// arrays where f_i evaluates them (the posterior mean), through a [1, P, D] tensor otherwise.
pde::PointwiseNonlinearity explicit_part(std::vector<Functions> functions,
                                         const std::vector<pde::Partial>& partials,
                                         std::vector<std::vector<double>> c) {
  pde::PointwiseNonlinearity part;
  part.partials = partials;
  const auto rows = std::make_shared<std::vector<double>>();
  part.evaluate = [functions = std::move(functions), c = std::move(c), rows](
                      const std::vector<const double*>& values, std::int64_t points,
                      const std::vector<double*>& out) {
    const std::int64_t inputs = static_cast<std::int64_t>(values.size());
    rows->resize(static_cast<std::size_t>(inputs * points));  // v [D, P] row-major
    for (std::int64_t d = 0; d < inputs; ++d)
      std::copy(values[d], values[d] + points, rows->begin() + d * points);
    const at::NoGradGuard no_grad;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (functions[i]->evaluates_values()) {
        functions[i]->evaluate_values(0, rows->data(), points, 0.0, out[i]);
      } else {
        const at::Tensor v = at::from_blob(rows->data(), {inputs, points}, at::kDouble).t();
        const at::Tensor f = functions[i]->evaluate(v.unsqueeze(0)).contiguous();
        std::copy(f.data_ptr<double>(), f.data_ptr<double>() + points, out[i]);
      }
      for (std::int64_t d = 0; d < inputs; ++d)
        for (std::int64_t p = 0; p < points; ++p) out[i][p] -= c[i][d] * values[d][p];
    }
  };
  return part;
}

/// One operator's solve and what it was solved with.
struct OperatorSolve {
  pde::FieldSystem linear;  ///< the part treated exactly, repair included
  double added_diffusion = 0.0;
  pde::SystemSolution solution;
};

/// Solves operators f_i (one function per field) from u0 as the header says.
struct OperatorSolver {
  const pde::FieldSystem& system;
  const pde::PeriodicBox& box;
  const std::vector<pde::Partial>& partials;
  const at::Tensor& v0;  ///< u0's root inputs [P, D]
  const std::vector<double>& u0;
  const SystemPredictionOptions& options;

  OperatorSolve solve(const std::vector<Functions>& functions) const {
    const std::vector<std::vector<double>> c = jacobians(functions, v0);
    const pde::FieldSystem linear = linear_system(system, partials, c);
    const pde::SystemEtdrk4 linearisation(box, linear, options.solve.contour_points);
    const double diffusion =
        pde::system_well_posedness(linearisation, options.solve.t_end, options.max_amplification)
            .diffusion;
    OperatorSolve solved{pde::with_added_diffusion(linear, diffusion), diffusion, {}};
    const pde::PointwiseNonlinearity part = explicit_part(functions, partials, c);
    solved.solution = pde::solve_field_system(box, solved.linear, u0, options.solve, {}, &part);
    return solved;
  }
};

}  // namespace

SystemOperators system_root_operators(const TrainedSystem& trained,
                                      const SystemPredictionOptions& options) {
  if (!options.spread_factors.empty() && options.spread_factors.size() != trained.roots.size())
    throw std::invalid_argument("predict: " + std::to_string(options.spread_factors.size()) +
                                " spread factors for " + std::to_string(trained.roots.size()) +
                                " fields");
  SystemOperators functions;
  const at::NoGradGuard no_grad;
  for (std::size_t i = 0; i < trained.roots.size(); ++i) {
    const gp::ExactGpImpl& root = *trained.roots[i];
    const gp::ExactGpFactor factor = root.factorize();
    functions.means.push_back(std::make_shared<gp::PosteriorMean>(root, factor));
    gp::PathwiseOptions sampling{options.features,
                                 util::derive_seed(options.seed, "system_prediction", i)};
    if (!options.spread_factors.empty())
      sampling.deviation_scale = std::sqrt(options.spread_factors.at(i));
    functions.samples.push_back(
        std::make_shared<gp::PathwiseSamples>(root, factor, options.samples, sampling));
  }
  return functions;
}

SystemPrediction predict_system(const TrainedSystem& trained, const pde::PeriodicBox& box,
                                const std::vector<double>& u0,
                                const SystemPredictionOptions& options,
                                const SystemOperators* operators) {
  validate(options);
  const auto start = std::chrono::steady_clock::now();
  const pde::FieldSystem& system = trained.config.system;
  const std::int64_t q = system.size();
  if (static_cast<std::int64_t>(u0.size()) != q * box.points())
    throw std::invalid_argument("predict: u0 has " + std::to_string(u0.size()) +
                                " values; the box's " + std::to_string(q) + " fields need " +
                                std::to_string(q * box.points()));
  const std::vector<pde::Partial> partials =
      system.expression_partials(trained.config.learning.order);
  const std::int64_t inputs = static_cast<std::int64_t>(partials.size());
  const at::Tensor v0 = at::tensor(pde::box_partials(box, u0, partials), at::kDouble)
                            .view({inputs, box.points()})
                            .t();

  const SystemOperators roots = operators ? *operators : system_root_operators(trained, options);
  if (roots.means.size() != static_cast<std::size_t>(q) ||
      roots.samples.size() != static_cast<std::size_t>(q))
    throw std::invalid_argument("predict: operators for " + std::to_string(roots.means.size()) +
                                " fields; the system has " + std::to_string(q));
  const OperatorSolver solver{trained.config.system, box, partials, v0, u0, options};
  SystemPrediction prediction;
  OperatorSolve mean;
  try {
    mean = solver.solve(roots.means);
  } catch (const pde::SolverDivergence& error) {
    throw pde::SolverDivergence(
        std::string("predict: the solve under the roots' posterior means failed: ") + error.what(),
        error.time_reached());
  }
  prediction.t = mean.solution.t;
  prediction.mean_operator = std::move(mean.solution.u);
  prediction.linear_part = std::move(mean.linear);
  prediction.mean_added_diffusion = mean.added_diffusion;
  for (std::int64_t s = 0; s < roots.samples.front()->count(); ++s) {
    std::vector<Functions> member;
    const at::Tensor index = at::tensor({s}, at::kLong);
    for (const Functions& field : roots.samples) member.push_back(gp::select_members(field, index));
    try {
      OperatorSolve solved = solver.solve(member);
      prediction.members.push_back(std::move(solved.solution.u));
      prediction.member_index.push_back(s);
      prediction.added_diffusion.push_back(solved.added_diffusion);
    } catch (const pde::SolverDivergence& error) {
      prediction.failures.push_back("member " + std::to_string(s) + ": " + error.what());
    } catch (const std::invalid_argument& error) {  // a defective linearisation
      prediction.failures.push_back("member " + std::to_string(s) + ": " + error.what());
    }
  }
  prediction.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return prediction;
}

namespace {

/// values [T, q, points] as a tensor sharing their memory (read only).
at::Tensor grid_tensor(const std::vector<double>& values, std::int64_t times, std::int64_t fields) {
  return at::from_blob(const_cast<double*>(values.data()),
                       {times, fields, static_cast<std::int64_t>(values.size()) / (times * fields)},
                       at::kDouble);
}

std::vector<double> values_of(const at::Tensor& values) {
  const at::Tensor flat = values.contiguous().view({-1});
  return {flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel()};
}

}  // namespace

SystemBand system_band(const SystemPrediction& prediction) {
  if (prediction.members.empty())
    throw std::invalid_argument("predict: every member's solve diverged; no band (" +
                                std::to_string(prediction.failures.size()) + " dropped)");
  const std::int64_t times = static_cast<std::int64_t>(prediction.t.size());
  std::vector<at::Tensor> rows;
  for (const std::vector<double>& member : prediction.members)
    rows.push_back(at::tensor(member, at::kDouble).view({times, -1}));
  solve::EnsembleSolution ensemble;
  ensemble.u = at::stack(rows);  // [S', T, q points]
  const solve::EnsembleStatistics statistics = solve::ensemble_statistics(ensemble);
  return {values_of(statistics.mean), values_of(statistics.standard_deviation),
          values_of(statistics.band_lower), values_of(statistics.band_upper)};
}

std::vector<SystemPredictionScore> score_system_prediction(const SystemPrediction& prediction,
                                                           const SystemBand& band,
                                                           const std::vector<double>& truth,
                                                           const std::vector<std::string>& fields) {
  if (truth.size() != band.mean.size() || truth.size() != prediction.mean_operator.size())
    throw std::invalid_argument("predict: the true solution has " + std::to_string(truth.size()) +
                                " values; the prediction " + std::to_string(band.mean.size()));
  const std::int64_t q = static_cast<std::int64_t>(fields.size());
  const std::int64_t times = static_cast<std::int64_t>(prediction.t.size());
  const auto field = [&](const std::vector<double>& values, std::int64_t i) {
    return grid_tensor(values, times, q).select(1, i);
  };
  std::vector<SystemPredictionScore> scores;
  for (std::int64_t i = 0; i < q; ++i) {
    solve::EnsembleStatistics statistics;  // one field's, as one field's ensemble has them
    statistics.mean = field(band.mean, i);
    statistics.band_lower = field(band.lower, i);
    statistics.band_upper = field(band.upper, i);
    const at::Tensor true_field = field(truth, i);
    const solve::TruthComparison members = solve::compare_with_truth(statistics, true_field);
    const double means = (field(prediction.mean_operator, i) - true_field).norm().item<double>() /
                         true_field.norm().item<double>();
    const double spread = field(band.sd, i).square().mean().sqrt().item<double>();
    scores.push_back({fields[static_cast<std::size_t>(i)], means, members.relative_l2,
                      members.band_coverage, members.rmse / spread});
  }
  return scores;
}

}  // namespace bhpm::pipeline
