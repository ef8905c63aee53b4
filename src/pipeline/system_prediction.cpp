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
#include "solve/ensemble_statistics.h"
#include "solve/sampled_operator.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::pipeline {

void validate(const SystemPredictionOptions& options) {
  util::require_at_least(options.samples, 1, "predict", "samples");
  util::require_at_least(options.features, 1, "predict", "features");
  util::require_above(options.max_amplification, 1.0, "predict", "max_amplification");
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

/// Every field's posterior mean and S pathwise samples of its exact root.
struct RootFunctions {
  std::vector<Functions> means, samples;  ///< [q]
};

RootFunctions root_functions(const TrainedSystem& trained, const SystemPredictionOptions& options) {
  RootFunctions functions;
  const at::NoGradGuard no_grad;
  for (std::size_t i = 0; i < trained.roots.size(); ++i) {
    const gp::ExactGpImpl& root = *trained.roots[i];
    const gp::ExactGpFactor factor = root.factorize();
    functions.means.push_back(std::make_shared<gp::PosteriorMean>(root, factor));
    functions.samples.push_back(std::make_shared<gp::PathwiseSamples>(
        root, factor, options.samples,
        gp::PathwiseOptions{options.features,
                            util::derive_seed(options.seed, "system_prediction", i)}));
  }
  return functions;
}

}  // namespace

SystemPrediction predict_system(const TrainedSystem& trained, const pde::PeriodicBox& box,
                                const std::vector<double>& u0,
                                const SystemPredictionOptions& options) {
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

  const RootFunctions roots = root_functions(trained, options);
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
  for (std::int64_t s = 0; s < options.samples; ++s) {
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

SystemBand system_band(const SystemPrediction& prediction) {
  const std::size_t members = prediction.members.size();
  if (members == 0)
    throw std::invalid_argument("predict: every member's solve diverged; no band (" +
                                std::to_string(prediction.failures.size()) + " dropped)");
  const std::size_t size = prediction.members.front().size();
  SystemBand band{std::vector<double>(size, 0.0), std::vector<double>(size, 0.0), {}, {}};
  for (const std::vector<double>& member : prediction.members)
    for (std::size_t k = 0; k < size; ++k) band.mean[k] += member[k] / members;
  if (members > 1) {
    for (const std::vector<double>& member : prediction.members)
      for (std::size_t k = 0; k < size; ++k)
        band.sd[k] += std::pow(member[k] - band.mean[k], 2) / (members - 1);
    for (double& value : band.sd) value = std::sqrt(value);
  }
  band.lower.resize(size);
  band.upper.resize(size);
  const double factor = solve::prediction_band_factor(static_cast<std::int64_t>(members), 0.95);
  for (std::size_t k = 0; k < size; ++k) {
    band.lower[k] = band.mean[k] - factor * band.sd[k];
    band.upper[k] = band.mean[k] + factor * band.sd[k];
  }
  return band;
}

std::vector<SystemPredictionScore> score_system_prediction(const SystemPrediction& prediction,
                                                           const SystemBand& band,
                                                           const std::vector<double>& truth,
                                                           const std::vector<std::string>& fields) {
  if (truth.size() != band.mean.size() || truth.size() != prediction.mean_operator.size())
    throw std::invalid_argument("predict: the true solution has " + std::to_string(truth.size()) +
                                " values; the prediction " + std::to_string(band.mean.size()));
  const std::size_t q = fields.size(), times = prediction.t.size();
  const std::size_t points = truth.size() / (q * times);
  std::vector<SystemPredictionScore> scores;
  for (std::size_t i = 0; i < q; ++i) {
    double norm = 0.0, mean_operator = 0.0, ensemble = 0.0, spread = 0.0, inside = 0.0;
    for (std::size_t k = 0; k < times; ++k)
      for (std::size_t p = 0; p < points; ++p) {
        const std::size_t at = (k * q + i) * points + p;
        norm += truth[at] * truth[at];
        mean_operator += std::pow(prediction.mean_operator[at] - truth[at], 2);
        ensemble += std::pow(band.mean[at] - truth[at], 2);
        spread += band.sd[at] * band.sd[at];
        inside += (band.lower[at] <= truth[at] && truth[at] <= band.upper[at]) ? 1.0 : 0.0;
      }
    scores.push_back({fields[i], std::sqrt(mean_operator / norm), std::sqrt(ensemble / norm),
                      inside / static_cast<double>(times * points), std::sqrt(ensemble / spread)});
  }
  return scores;
}

}  // namespace bhpm::pipeline
