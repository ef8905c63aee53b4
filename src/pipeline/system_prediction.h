#pragma once
/// Predictions of a learned system (docs/systems.md, "Predicting with a system"; paper
/// section 2.3 for one field): a new initial condition u0 of every field is solved on a
/// periodic box under the roots' posterior means and under S members, member s taking
/// pathwise sample s (gp/pathwise_samples.h) of every field's exact root. Each solve is
/// pde/system_solve.h's ETDRK4 with the stiff part split off as for one field
/// (solve/sampled_operator.h):
///   u_i,t = sum_j c_ij v_j + (f_i(v) - sum_j c_ij v_j),
/// v every field's partials to order K, c_i the Jacobian of the posterior mean m_i averaged
/// over u0's points, treated exactly; the rest explicitly. Each member is linearised by its
/// own Jacobian (so what it solves does not depend on the other members) and checked for
/// well-posedness along u0 (pde/system_well_posedness.h): an ill-posed one is repaired by
/// the least diffusion a lap u_i added to every field that brings it within
/// max_amplification, recorded per member. A member whose solve diverges is dropped and
/// reported; the others go on.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gp/function_samples.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/system_solve.h"
#include "pipeline/trained_system.h"

namespace bhpm::pipeline {

struct SystemPredictionOptions {
  std::int64_t samples = 16;     ///< S members (>= 1)
  std::int64_t features = 1024;  ///< random features of each pathwise sample's prior
  std::uint64_t seed = 0;        ///< member s of field i: derive_seed(seed, "system_prediction", i)
  double max_amplification = 10;  ///< > 1: the growth a linearisation may give any resolved wave
  /// [q] kappa_i > 0: field i's samples deviate from its root's mean sqrt(kappa_i) times as
  /// much (pipeline/system_calibration.h); empty: 1 for every field (uncalibrated).
  std::vector<double> spread_factors;
  pde::SystemSolveOptions solve;  ///< horizon, output times and steps of every solve
};

/// Throws util::OptionError naming the field ("predict.samples") and the rule.
void validate(const SystemPredictionOptions& options);

struct SystemPrediction {
  std::vector<double> t;                     ///< [T] output times
  std::vector<double> mean_operator;         ///< [T, q, points]: the solve under every m_i
  std::vector<std::vector<double>> members;  ///< [S'][T, q, points]: the members that finished
  std::vector<std::int64_t> member_index;    ///< [S']: which sample each is
  std::vector<double> added_diffusion;       ///< [S']: a of each member (0: well-posed)
  std::vector<std::string> failures;         ///< one line per member dropped
  pde::FieldSystem linear_part;              ///< the means' sum_j c_ij v_j (+ a lap u_i) per field
  double mean_added_diffusion = 0.0;         ///< a of the means' solve
  double seconds = 0.0;
};

/// What the members solve: per field a mean operator (count 1) and S operator samples, each
/// a function of every field's partials to order K in the order of
/// FieldSystem::expression_partials.
struct SystemOperators {
  std::vector<std::shared_ptr<const gp::FunctionSamples>> means;    ///< [q]
  std::vector<std::shared_ptr<const gp::FunctionSamples>> samples;  ///< [q], S each
};

/// Every field's root posterior mean and options.samples pathwise samples of it (their
/// deviations scaled by sqrt(spread factor)), as the header says.
SystemOperators system_root_operators(const TrainedSystem& trained,
                                      const SystemPredictionOptions& options);

/// Solves from u0 [q, points] on `box` under `operators` (system_root_operators when null).
/// Throws std::invalid_argument for a u0 of another size or operators of another count,
/// pde::SolverDivergence (naming the time and field) when the mean operator's solve
/// diverges.
SystemPrediction predict_system(const TrainedSystem& trained, const pde::PeriodicBox& box,
                                const std::vector<double>& u0,
                                const SystemPredictionOptions& options,
                                const SystemOperators* operators = nullptr);

/// The members' mean, standard deviation and the 95 % prediction band for the truth,
/// mean -/+ t_{m-1}(0.975) sqrt(1 + 1/m) sd over the m members, each [T, q, points]: one
/// field's ensemble statistics (solve/ensemble_statistics.h) over every field at once.
struct SystemBand {
  std::vector<double> mean, sd, lower, upper;
};

/// Over the members that finished (sd 0 and the band the mean with one member); throws
/// std::invalid_argument when none did.
SystemBand system_band(const SystemPrediction& prediction);

/// A prediction against the true solution [T, q, points], per field (the members' scores by
/// solve::compare_with_truth, as one field's ensemble is scored).
struct SystemPredictionScore {
  std::string field;
  double mean_operator_error = 0.0;  ///< ||u_m - u|| / ||u|| over (t, x) of the mean solve
  double ensemble_mean_error = 0.0;  ///< the same of the members' mean
  double coverage = 0.0;             ///< fraction of the (t, x) values inside the band
  double error_over_spread = 0.0;    ///< RMS(ensemble mean - u) / RMS(sd)
};

/// Per field; throws std::invalid_argument when `truth` has another size.
std::vector<SystemPredictionScore> score_system_prediction(const SystemPrediction& prediction,
                                                           const SystemBand& band,
                                                           const std::vector<double>& truth,
                                                           const std::vector<std::string>& fields);

}  // namespace bhpm::pipeline
