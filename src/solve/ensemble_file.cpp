#include "solve/ensemble_file.h"

#include <ATen/ATen.h>

#include <string>
#include <utility>
#include <vector>

#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"
#include "pde/boundary_elimination.h"

namespace bhpm::solve {

namespace {

constexpr std::int64_t kEnsembleFormatVersion = 1;

void write_samples(const io::Hdf5Location& file, const solve::Prediction& prediction) {
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  const io::Hdf5Location group = file.create_group("samples");
  io::write_tensor(group, "u", ensemble.u,
                   {"sample,t,x", "u", "solution under each operator sample"});
  io::write_tensor(group, "diverged", ensemble.diverged.to(at::kLong),
                   {"sample", "1", "1: the solve blew up; left out of /statistics"});
  if (ensemble.rejected.defined())
    io::write_tensor(group, "rejected", ensemble.rejected.to(at::kLong),
                     {"sample", "1", "1: ill-posed along u0, not used; left out of /statistics"});
  if (ensemble.growth.defined())
    io::write_tensor(group, "growth", ensemble.growth,
                     {"sample", "1", "e-folds of the fastest resolved wave in the linearisation"});
  if (ensemble.added_diffusion.defined())
    io::write_tensor(group, "repaired", ensemble.repaired().to(at::kLong),
                     {"sample", "1", "1: ill-posed along u0, solved with added diffusion"});
  if (ensemble.added_diffusion.defined())
    io::write_tensor(group, "added_diffusion", ensemble.added_diffusion,
                     {"sample", "length^2 per time", "coefficient of the u_xx term added"});
  std::string failures;
  for (std::size_t s = 0; s < ensemble.failures.size(); ++s)
    if (!ensemble.failures[s].empty())
      failures += "sample " + std::to_string(s) + ": " + ensemble.failures[s] + "\n";
  group.set_attribute("failures", failures);
  if (prediction.refinement.empty()) return;
  std::vector<std::int64_t> points, converged, out_of_budget, out_of_reach;
  std::vector<double> variance;
  for (const solve::MemberRefinement& member : prediction.refinement) {
    points.push_back(member.conditioning_points);
    converged.push_back(member.converged ? 1 : 0);
    out_of_budget.push_back(member.out_of_budget ? 1 : 0);
    out_of_reach.push_back(member.out_of_reach ? 1 : 0);
    variance.push_back(member.expected_variance);
  }
  io::write_tensor(
      group, "conditioning_points", at::tensor(points, at::kLong),
      {"sample", "1", "size of V_c (inducing inputs included) when Algorithm 1 stopped"});
  io::write_tensor(group, "expected_variance", at::tensor(variance, at::kDouble),
                   {"sample", "(u per time)^2", "last L_c (Eq. 6) of Algorithm 1"});
  io::write_tensor(group, "converged", at::tensor(converged, at::kLong),
                   {"sample", "1", "1: L_c fell below the tolerance"});
  io::write_tensor(group, "out_of_budget", at::tensor(out_of_budget, at::kLong),
                   {"sample", "1", "1: stopped unconverged by predict.time_budget"});
  io::write_tensor(
      group, "out_of_reach", at::tensor(out_of_reach, at::kLong),
      {"sample", "1",
       "1: max_rounds could not bring L_c under the tolerance; took the rounds left at once"});
}

void write_statistics(const io::Hdf5Location& file, const solve::EnsembleStatistics& statistics) {
  const io::Hdf5Location group = file.create_group("statistics");
  group.set_attribute("members", statistics.members);
  io::write_tensor(group, "mean", statistics.mean,
                   {"t,x", "u", "ensemble mean over sound members"});
  io::write_tensor(group, "std", statistics.standard_deviation,
                   {"t,x", "u", "ensemble standard deviation (1/(S-1))"});
  io::write_tensor(group, "p2_5", statistics.lower, {"t,x", "u", "2.5 % quantile"});
  io::write_tensor(group, "p50", statistics.median, {"t,x", "u", "median"});
  io::write_tensor(group, "p97_5", statistics.upper, {"t,x", "u", "97.5 % quantile"});
  io::write_tensor(group, "band_lower", statistics.band_lower,
                   {"t,x", "u", "95 % prediction band: mean - t_{m-1}(0.975) sqrt(1 + 1/m) std"});
  io::write_tensor(group, "band_upper", statistics.band_upper,
                   {"t,x", "u", "95 % prediction band: mean + t_{m-1}(0.975) sqrt(1 + 1/m) std"});
}

std::string joined_descriptions(const std::vector<pde::BoundaryCondition>& end) {
  std::string text;
  for (const pde::BoundaryCondition& condition : end)
    text += (text.empty() ? "" : "; ") + condition.describe();
  return text.empty() ? "none" : text;
}

void write_measurements(const io::Hdf5Location& file, const MeasurementComparison& comparison,
                        bool held_back) {
  const io::Hdf5Location group = file.create_group("measurements");
  group.set_attribute("points", comparison.points);
  group.set_attribute("relative_l2", comparison.of_u.relative_l2);
  group.set_attribute("rmse", comparison.of_u.rmse);
  group.set_attribute("coverage95", comparison.of_u.band_coverage);
  group.set_attribute("measurement_coverage95", comparison.measurement_band_coverage);
  group.set_attribute("held_back", std::int64_t{held_back});
}

void write_boundary(const io::Hdf5Location& file, const pde::BoundaryConditions& conditions,
                    const at::Tensor& t) {
  const io::Hdf5Location group = file.create_group("boundary");
  const std::pair<const char*, const std::vector<pde::BoundaryCondition>*> ends[] = {
      {"left", &conditions.left}, {"right", &conditions.right}};
  for (const auto& [name, end] : ends) {
    group.set_attribute(std::string(name) + "_conditions", joined_descriptions(*end));
    if (!end->empty())
      io::write_tensor(group, name, pde::condition_data(*end, t),
                       {"condition,t", "as the condition", "the condition's data g(t)"});
  }
}

}  // namespace

void write_ensemble_file(const std::string& path, const EnsembleRecord& record) {
  const solve::EnsembleSolution& ensemble = record.prediction->ensemble;
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string("bhpm-ensemble"));
    file.set_attribute("format_version", kEnsembleFormatVersion);
    for (const auto& [name, value] : record.attributes) file.set_attribute(name, value);
    file.set_attribute("samples", ensemble.u.size(0));
    file.set_attribute("diverged", ensemble.diverged_count());
    file.set_attribute("rejected", ensemble.rejected_count());
    file.set_attribute("repaired", ensemble.repaired_count());
    file.set_attribute("steps", ensemble.steps);
    file.set_attribute("rejected_steps", ensemble.rejected_steps);
    file.set_attribute("discrepancy_variance", record.prediction->discrepancy_variance);
    file.set_attribute("discrepancy_timescale", record.prediction->discrepancy_timescale);
    file.set_attribute("spread_inflation", record.prediction->spread_inflation);
    file.set_attribute("discrepancy_order", record.prediction->discrepancy_order);
    file.set_attribute("conserve_mean", std::int64_t{record.prediction->conserve_mean});
    file.set_attribute("outside_coverage", record.outside_coverage);
    io::write_tensor(file, "x", ensemble.x, {"x", "length", "output grid points"});
    io::write_tensor(file, "t", ensemble.t, {"t", "time", "output times"});
    io::write_tensor(file, "u0", record.u0, {"x", "u", "initial condition"});
    write_samples(file, *record.prediction);
    write_statistics(file, *record.statistics);
    io::write_tensor(
        file, "operator_std", record.operator_std,
        {"t,x", "u per time", "posterior standard deviation of f along the ensemble mean"});
    if (record.truth.defined()) {
      const io::Hdf5Location truth = file.create_group("truth");
      io::write_tensor(truth, "u", record.truth, {"t,x", "u", "true solution (test experiment)"});
      if (record.comparison) {
        truth.set_attribute("relative_l2", record.comparison->relative_l2);
        truth.set_attribute("rmse", record.comparison->rmse);
        truth.set_attribute("coverage95", record.comparison->band_coverage);
      }
    }
    if (record.conditions) write_boundary(file, *record.conditions, ensemble.t);
    if (record.measurements) write_measurements(file, *record.measurements, record.held_back);
  }  // closes the file before the rename
  output.commit();
}

}  // namespace bhpm::solve
