#pragma once
/// The [predict] section: how `bhpm predict` samples the learned operator and solves new
/// initial-boundary value problems (solve/predictor.h). Keys and defaults:
///   samples = 32                S operator samples (paper Fig. 4)
///   operator = "gp"             "gp": samples of the root's posterior; "distilled": the
///                               first S coefficient samples of RUN_DIR/distill.json
///                               (`bhpm distill`), polynomials solved without a sampler or
///                               model discrepancy (solve/polynomial_samples.h); "weak-form":
///                               the first S of its weak form's, the same way
///   sampler = "conditioned"     "conditioned" (Algorithm 1) | "pathwise" (Wilson et al.)
///   solver = "spectral"         "spectral" (ETDRK4) | "pinn" (appendix C)
///   relative_tolerance = 1e-4   Algorithm 1 stops when L_c < relative_tolerance * s^2,
///                               s^2 the root kernel's signal variance (prior variance of f)
///   new_points = 8              n_c,new conditioning points per round
///   monte_carlo_points = 1024   push-forward points estimating L_c
///   max_rounds = 5              rounds of Algorithm 1 before a sample is reported unconverged
///                               (kPredictMaxRounds: what bounds a prediction's cost by
///                               default, reproducibly; docs/predictions.md, "Cost of a
///                               prediction")
///   time_budget = 0             wall seconds for Algorithm 1's rounds per prediction (0: no
///                               limit); samples still refining when the next round would
///                               end past it stop unconverged (solve/operator_refinement.h)
///   descent_steps = 50          Adam steps on the new conditioning inputs per round
///   features = 1024             random Fourier features of a pathwise sample
///   step_tolerance = 1e-4       each sample's solve takes adaptive steps of its own whose
///                               estimated local error is at most this (pde/member_steps.h;
///                               docs/predictions.md, "Speed of predictions"); 0: fixed steps of dt
///   max_interval_steps = 100    adaptive steps (kept and rejected) a sample may try within
///                               one output interval; one that needs more is dropped as
///                               diverged, which bounds a prediction's cost (docs/predictions.md,
///                               "Cost of a prediction"); 0: no bound
///   dt = 0                      spectral time step (with step_tolerance > 0 the first one
///                               tried); 0: the data's [solver] dt
///   discrepancy = "calibrated"  model-discrepancy variance tau^2 of the samples:
///                               "calibrated" (RUN_DIR/discrepancy.json, `bhpm calibrate`),
///                               "fixed" (discrepancy_variance) or "none" (0)
///   discrepancy_variance = 0    tau^2 for discrepancy = "fixed" (>= 0)
///   discrepancy_timescale = 0   T for discrepancy = "fixed" (>= 0): the discrepancy
///                               decorrelates in time over T; 0: constant in time
///                               (gp/discrepancy_field.h)
///   discrepancy_order = 1       the discrepancy depends on u, .., d^m u/dx^m for m this
///                               (>= 0), not on the higher derivatives (the principal part:
///                               a random slope there can make a sample ill-posed)
///   calibration_method = "operator"  how `bhpm calibrate` fits the discrepancy:
///                               "operator" (the training measurements alone, on any
///                               dataset: kappa from the left-out posteriors' residuals and
///                               samples at the leaf rows, solve/operator_calibration.h),
///                               "trajectories" (predicts the training experiments'
///                               solution grids; the keys below), "windows" (predicts each
///                               training experiment on its own window by its left-out
///                               posterior and scores its measurements, any dataset:
///                               solve/window_calibration.h), "auto" (= "operator", the name
///                               older run folders store)
///   calibration_samples = 6     samples per training experiment in `bhpm calibrate` (>= 2)
///   calibration_leave_one_out = true  `bhpm calibrate` predicts each training experiment
///                               with the root's posterior fitted without its rows (at least
///                               2 training experiments), as a new initial condition would be
///   calibration_transfer = true `bhpm calibrate` chooses between its two forms by how each
///                               one's fit on posteriors without 2 training experiments
///                               carries over to the leave-one-out ensembles (3 or more
///                               training experiments; about half calibrate's time again)
///   max_amplification = 10      samples whose linearisation about u0 grows the fastest
///                               resolved wave more than this over the horizon are ill-posed
///   ill_posed = "repair"        "repair": an ill-posed sample is solved with the least added
///                               diffusion a u_xx that brings it within max_amplification
///                               (solve/stabilised_samples.h); "reject": it is left out
///   conservation = "auto"       "auto": each sample is projected onto dynamics that conserve
///                               the spatial mean of u when the data do
///                               (RUN_DIR/discrepancy.json, `bhpm calibrate`;
///                               pipeline/mean_conservation.h),
///                               "mean": always, "none": never (spectral solver only)
///   equation_terms = "root"     where the coefficients of the equation's terms come from:
///                               "root": the root's samples as they are; "weak-form" moves
///                               every sample by the one polynomial that takes the posterior
///                               mean's coefficients on the terms the weak form keeps to the
///                               weak form's medians (pipeline/weak_form_shift.h;
///                               docs/calibration.md, "Equation terms from the weak form")
///   pinn_iterations = 50000, pinn_collocation_points = 4096, pinn_boundary_points = 256,
///   pinn_initial_points = 256, pinn_learning_rate = 1e-3, pinn_final_learning_rate = 1e-4

#include <string>
#include <vector>

#include "config/config_reader.h"
#include "solve/predictor.h"

namespace bhpm::config {

/// [predict] max_rounds by default. Where a path leaves the data's coverage, L_c falls about
/// a hundredfold over the first five rounds and little after (docs/predictions.md, "Cost of a
/// prediction"), while each round costs about a solve of the samples still refining.
constexpr std::int64_t kPredictMaxRounds = 5;

struct PredictConfig {
  solve::PredictorOptions options;  ///< refinement.tolerance unset: see relative_tolerance
  double relative_tolerance = 1e-4;
  double dt = 0.0;               ///< 0: the simulation's time step
  double step_tolerance = 1e-4;  ///< the samples' local error per step; 0: fixed steps
  /// Adaptive steps a sample may try within one output interval before it is dropped as
  /// diverged (pde::SolveOptions::max_interval_steps); 0: no bound.
  std::int64_t max_interval_steps = 100;
  /// Where tau^2 and T (options.discrepancy_variance, discrepancy_timescale) come
  /// from: one of discrepancy_sources().
  std::string discrepancy = "calibrated";
  /// How `bhpm calibrate` fits it: "auto" or one of solve::calibration_methods().
  std::string calibration_method = "operator";
  std::int64_t calibration_samples = 6;   ///< per training experiment in `bhpm calibrate`
  bool calibration_leave_one_out = true;  ///< leave-one-experiment-out posteriors there
  bool calibration_transfer = true;       ///< the form chosen by its transfer there
  /// Whether the samples conserve the spatial mean: one of conservation_choices(); resolved
  /// into options.conserve_mean with the run folder's decision (pipeline/run_folder.h).
  std::string conservation = "auto";
  /// Which operator the samples come from: one of operator_sources().
  std::string operator_source = "gp";
  /// Where the equation terms' coefficients come from: one of equation_term_sources().
  std::string equation_terms = "root";
};

/// "gp", "distilled", "weak-form".
const std::vector<std::string>& operator_sources();

/// "root", "weak-form".
const std::vector<std::string>& equation_term_sources();

/// "calibrated", "fixed", "none".
const std::vector<std::string>& discrepancy_sources();

/// "auto", "mean", "none".
const std::vector<std::string>& conservation_choices();

/// "auto", then solve::calibration_methods(): "trajectories", "operator", "windows".
const std::vector<std::string>& calibration_method_choices();

/// The samples' time steps from the data's `solve` options: the first or fixed step dt
/// where given, and adaptive steps to step_tolerance (0: fixed), at most max_interval_steps
/// per output interval.
void apply_time_steps(const PredictConfig& config, pde::SolveOptions& solve);

/// Reads [predict]; throws ConfigError naming the field and the rule.
PredictConfig read_predict_config(ConfigReader& reader);

/// Algorithm 1's keys in `section` (new_points, monte_carlo_points, max_rounds,
/// descent_steps), `refinement`'s values as defaults; shared by [predict] and
/// [refinement_study]. They are read only: solve::validate(RefinementOptions) owns their rules.
void read_algorithm1_keys(ConfigSection& section, solve::RefinementOptions& refinement);

}  // namespace bhpm::config
