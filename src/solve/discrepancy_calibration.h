#pragma once
/// The model discrepancy of the operator samples, calibrated on the training experiments
/// (docs/calibration.md, "Model discrepancy"; `bhpm calibrate`). The root's posterior treats
/// the leaves' v = (u, u_x, ..) and u_t as exact, so where the data are it is sure of an f
/// that the leaves' errors have biased; every operator sample therefore carries a smooth
/// random term delta_s(v, t) ~ GP(0, tau^2 k(v, v') exp(-(t - t')^2 / (2 T^2)))
/// (gp/discrepancy_field.h), k an RBF on the root's lengthscales of u, .., d^m u/dx^m
/// (m = PredictorOptions::discrepancy_order; the higher derivatives are the principal
/// part, which the discrepancy leaves to the root's samples). tau^2 and the timescale
/// T are chosen so that, on the training
/// experiments' own initial conditions and horizons, the ensembles' spread matches their
/// error at the measured points, over the whole horizon and over its course (held-out
/// experiments are never used):
///   1. predict every training experiment e from its u0 (by the root's posterior refitted
///      without e's rows when the caller gives one: leave one experiment out, so that e is
///      predicted as a new initial condition would be) with tau = 0, and with a reference
///      tau_e^2 for every candidate T = kTimescaleFractions times the longest training
///      horizon (same seeds): tau_e^2 =
///      sigma_f^2 (the likelihood's variance), or sigma_f^2 / 4^j for the smallest
///      j <= kMaxReferenceReductions at which at least 2 members are sound in both (a
///      large reference can make every sample ill-posed: KdV);
///   2. at its measured points y_ep (t > 0), in each of kTimeBins equal bins k of the
///      horizon, with ensemble means m0 and variances V0, V1 over S samples, means over p:
///        E_ek = mean (m0 - y)^2 - V0 / S - epsilon^2  (error of the infinite ensemble's
///                                                     mean, measurement noise epsilon
///                                                     removed; S its sound samples),
///        V0_ek = mean V0,  G_ek(T) = mean (V1 - V0) / tau_e^2  (spread per unit tau^2);
///   3. the spread grows linearly in tau^2 for small tau (a linear response), so
///        tau^2(T) = argmin_{tau^2 >= 0} misfit(T, tau^2),
///        misfit(T, tau^2) = sum_{e,k} ln^2((V0_ek + tau^2 G_ek(T)) / E_ek)
///      over the bins with E_ek > 0 whose path the data cover (the fraction of the plain
///      ensemble mean's path outside the coverage of the posterior that predicted it, at
///      most kCoveredPathTolerance; every bin when none is covered): the ensemble's spread
///      equals its error in ratio, in every experiment and bin as nearly as one tau^2 can
///      make it. Off the data a leave-one-out ensemble spreads as far as the prior
///      extrapolates, which no discrepancy corrects and which a new initial condition,
///      predicted by the posterior of every training experiment, meets far less often
///      (docs/calibration.md, "Spread inflation"). Pooling the variances over the
///      experiments instead would let one experiment whose plain spread exceeded its error
///      cancel the others' deficit (docs/calibration.md, "Model discrepancy");
///   4. T is the candidate whose spread best follows the error over the experiments and
///      time bins: the least misfit(T, tau^2(T)) (the first candidate, T = 0, when no
///      tau^2 is positive). A discrepancy constant in time (T = 0) moves a solution
///      coherently, so its spread grows over the horizon faster than a leaf-biased f's
///      error does;
///      a shorter T lets it grow more slowly (docs/calibration.md, "Model discrepancy");
///   5. the other form, the posterior's own spread scaled (gp/inflated_posterior.h, which
///      scales the part q(u) makes, nearly all of it at the training rows): V0 -> kappa V0
///      with ln kappa = mean_{e,k} ln(E_ek / V0_ek) over step 3's bins of T = 0 (the
///      minimiser of sum ln^2(kappa V0_ek / E_ek)), kappa >= 1. It is chosen over the best
///      tau^2 when its misfit is smaller: where the plain spread already follows the error
///      over the horizon and from experiment to experiment, a factor on it carries over to
///      a new initial condition, whose posterior spread is smaller or larger with its
///      distance from the data, as a tau^2 fitted to left-out experiments does not
///      (docs/calibration.md, "Spread inflation");
///   6. the transfer check, when every experiment has a leave-two-out posterior (3 or more
///      training experiments): steps 3-5 fit on posteriors of N - 1 experiments, and a
///      prediction uses the posterior of all N; how each form's fit carries over to more
///      data is what the misfit of steps 4-5 does not see (on Burgers the truth lay nearer
///      kappa's spread, on KdV nearer tau^2's; docs/calibration.md, "Choosing the form by
///      transfer"). So steps 1-2 are repeated one experiment lower: every experiment e is
///      predicted by the posterior without it and experiment (e + 1) mod N, without tau and
///      with tau_e^2 at step 4's T; kappa and tau^2(T) are fitted on those ensembles as in
///      steps 3 and 5 and carried over to the leave-one-out ensembles of step 2, where each
///      one's loss is its misfit less that of the value fitted there (the same bins). The
///      form that loses less is chosen, at its value of steps 3-5, when both fits one level
///      lower lie inside their bounds (kappa > 1, tau^2 > 0: fitted by the data, not set by
///      the bound); otherwise, and without the check, the smaller misfit of steps 4-5
///      decides.

#include <ATen/core/Tensor.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gp/sparse_variational_gp.h"
#include "solve/operator_calibration.h"
#include "solve/predictor.h"
#include "solve/window_calibration.h"

namespace bhpm::solve {

/// One training experiment: its IBVP, its measurements on the problem's output grid and
/// the root posterior that predicts it.
struct CalibrationExperiment {
  PredictionProblem problem;  ///< u0 = the experiment's t = 0, horizon = its last time
  at::Tensor index;           ///< [P] int64: t_index * n + x_index in the [T, n] output grid
  at::Tensor measured;        ///< [P] measured u there
  /// The posterior without this experiment's rows (model::BhpmModelImpl::
  /// set_optimal_root_posterior with it left out), so that the experiment is predicted as
  /// a new initial condition would be; empty: the trained root.
  gp::SparseVariationalGp leave_one_out_root{nullptr};
  /// The posterior without this experiment's rows and those of experiment (e + 1) mod N
  /// (step 6: a posterior of N - 2 experiments); empty: no transfer check.
  gp::SparseVariationalGp leave_two_out_root{nullptr};
};

/// The candidate timescales of step 1 as fractions of the longest training horizon; 0
/// (constant in time) first. A timescale as long as the horizon behaves nearly as the
/// constant one (docs/calibration.md, "Model discrepancy"), so it is not a candidate: each
/// one costs an ensemble per training experiment.
inline const std::vector<double> kTimescaleFractions = {0.0, 0.25, 0.0625};
/// The time bins of step 2: equal parts of (0, t_end].
constexpr std::int64_t kTimeBins = 5;
/// How many times calibrate_discrepancy divides an experiment's reference tau_e^2 by 4
/// before leaving the experiment out.
constexpr int kMaxReferenceReductions = 6;

/// Step 2 for one experiment and one candidate T: means over its measured points with
/// t > 0 in each time bin [kTimeBins], over the members sound in both ensembles; an
/// experiment with fewer than 2 of them is left out of the pooling (points all 0).
struct CandidateSpread {
  double timescale = 0;            ///< T
  std::int64_t sound_samples = 0;  ///< members neither diverged nor rejected in both runs
  double reference_variance = 0;   ///< tau_e^2 of the widened run
  std::vector<std::int64_t> points;
  std::vector<double> squared_error;     ///< mean (m0 - y)^2
  std::vector<double> variance_without;  ///< mean V0
  std::vector<double> variance_with;     ///< mean V1
  /// Per bin, the fraction of the plain ensemble mean's path (x, t) outside the coverage of
  /// the posterior that predicted it (fraction_outside_coverage; NaN without a sound member).
  std::vector<double> outside_coverage;
};

/// Steps 3-4 for one candidate T, pooled over the experiments.
struct CandidateFit {
  double timescale = 0;            ///< T
  double variance = 0;             ///< tau^2(T)
  double misfit = NAN;             ///< misfit(T); NaN when no bin has both sides positive
  std::int64_t bins = 0;           ///< the bins fitted
  std::int64_t off_data_bins = 0;  ///< bins left out as off the data (step 3)
};

/// Step 5: the spread's factor and its misfit.
struct InflationFit {
  double factor = 1;               ///< kappa >= 1
  double misfit = NAN;             ///< sum ln^2(kappa V0_ek / E_ek); NaN when no bin is left
  std::int64_t bins = 0;           ///< the bins fitted
  std::int64_t off_data_bins = 0;  ///< bins left out as off the data (step 3)
};

/// Step 6: each form fitted on the leave-two-out ensembles and carried over to the
/// leave-one-out ones.
struct TransferCheck {
  std::vector<CandidateSpread>
      experiments;                  ///< [experiment]: step 2 at step 4's T; empty: not done
  InflationFit inflation;           ///< kappa fitted on them (its misfit there)
  CandidateFit discrepancy;         ///< tau^2(T) fitted on them (its misfit there)
  double inflation_misfit = NAN;    ///< that kappa's misfit on the leave-one-out bins
  double discrepancy_misfit = NAN;  ///< that tau^2's misfit on the leave-one-out bins
  /// The loss of carrying each fit over: its misfit on the leave-one-out bins less that of
  /// the value fitted on them (>= 0 to the search's tolerance: steps 3 and 5 minimise it).
  double inflation_loss = NAN, discrepancy_loss = NAN;
  /// Whether both losses are finite.
  bool losses_finite() const {
    return std::isfinite(inflation_loss) && std::isfinite(discrepancy_loss);
  }
  /// Whether both fits lie inside their bounds (kappa > 1, tau^2 > 0). A fit at its bound
  /// was set by the bound, not by the data, and its loss then measures only how far the
  /// value fitted on the leave-one-out ensembles lies from that bound (on a kdv-quick
  /// training both sat there and the loss kept kappa, nearly the plain spread, where
  /// tau^2 held the held-out truth better; docs/calibration.md, "Choosing the form by
  /// transfer").
  bool fits_inside_bounds() const { return inflation.factor > 1 && discrepancy.variance > 0; }
  /// Whether the losses decide the form: both finite, both fits inside their bounds.
  bool decides() const { return losses_finite() && fits_inside_bounds(); }
};

/// The two ways `bhpm calibrate` fits the discrepancy: "trajectories" (steps 1-6 above:
/// the training experiments' solution grids predicted) and "operator" (their measurements
/// alone: solve/operator_calibration.h).
const std::vector<std::string>& calibration_methods();

struct DiscrepancyCalibration {
  /// "trajectories" (every field below from steps 1-6), "operator" (kappa from
  /// `operator_fit`; no ensembles: samples 0, candidates and experiments empty) or
  /// "windows" (kappa from `window_fit`; candidates and experiments empty).
  std::string method = "trajectories";
  OperatorCalibration operator_fit;  ///< method "operator" only
  WindowCalibration window_fit;      ///< method "windows" only
  double reference_variance = 0;     ///< sigma_f^2, the first reference tau_e^2 of every experiment
  double inflation = 1;              ///< kappa when step 5 was chosen, else 1
  InflationFit inflation_fit;        ///< step 5's fit, chosen or not
  double variance = 0;               ///< tau^2 of the chosen T (0 when kappa was chosen)
  double timescale = 0;              ///< the chosen T
  std::int64_t order = 0;            ///< m: the highest derivative the discrepancy depends on
  double noise_variance = 0;         ///< epsilon^2
  std::int64_t samples = 0;          ///< S per experiment and setting
  std::vector<CandidateFit> candidates;                   ///< one per candidate T
  std::vector<std::vector<CandidateSpread>> experiments;  ///< [experiment][candidate]
  /// Whether the ensembles conserved the spatial mean (PredictorOptions::conserve_mean),
  /// and what decided (set by the caller; pipeline/mean_conservation.h): the training
  /// leaves' relative drift of it (model/mean_drift.h) or, on windows narrower than the
  /// period, the root's rho (model/total_derivative_residual.h); NaN when not measured.
  bool conserve_mean = false;
  double mean_drift = NAN;
  double total_derivative_residual = NAN;
  /// Whether every experiment was predicted by its leave-one-out posterior.
  bool leave_one_out = false;
  TransferCheck transfer;  ///< step 6 (experiments empty when not done)
};

/// Step 3 for one candidate T from its spread in every experiment (`spreads`; those with
/// fewer than 2 sound members, and bins without points or with E_ek <= 0, are left out):
/// tau^2(T) minimising misfit(T, tau^2), searched on a grid of 0.05 decades from 1e-8 to
/// 1e4 times `scale` (calibrate_discrepancy: sigma_f^2), refined by golden section in
/// log tau^2, and 0 when no positive value fits better; misfit NaN when no bin is left.
CandidateFit fit_candidate(double timescale, const std::vector<CandidateSpread>& spreads,
                           double noise_variance, double scale);

/// Step 5 from the spreads of the T = 0 ensembles (fit_candidate's bins).
InflationFit fit_inflation(const std::vector<CandidateSpread>& spreads, double noise_variance);

/// Step 6's fits and losses from the leave-two-out spreads at step 4's T (`transfer`, one
/// per experiment) and the leave-one-out spreads at T = 0 (`constant`, kappa's) and at step
/// 4's T (`chosen`, tau^2's), whose own fits were `inflation` and `variance`; `scale` as in
/// fit_candidate.
TransferCheck check_transfer(const std::vector<CandidateSpread>& transfer,
                             const std::vector<CandidateSpread>& constant,
                             const std::vector<CandidateSpread>& chosen, double inflation,
                             double variance, double noise_variance, double scale);

/// Steps 1-6 with `options` (its samples, sampler, solver, seed and discrepancy_order; its
/// discrepancy variance and timescale are ignored); experiment e is predicted by its
/// leave_one_out_root when it has one, else by `root` (whose sigma_f^2 is the reference);
/// step 6 runs when every experiment has a leave_two_out_root;
/// `progress` gets a line per experiment with the time so far and an estimate of the time
/// left. Throws std::invalid_argument for no experiment, fewer than 2 samples or bad
/// indices (all checked before any ensemble is solved), std::runtime_error when no
/// experiment has 2 sound members.
DiscrepancyCalibration calibrate_discrepancy(const gp::SparseVariationalGpImpl& root,
                                             const std::vector<CalibrationExperiment>& experiments,
                                             const PredictorOptions& options, double noise_variance,
                                             const PredictionProgress& progress = {});

/// The calibration of method "operator": kappa = operator_fit.factor, no tau^2, the
/// discrepancy order m and measurement noise epsilon^2 recorded as given.
DiscrepancyCalibration operator_discrepancy(const OperatorCalibration& fit, std::int64_t order,
                                            double noise_variance);

/// The calibration record of method "windows": kappa of `fit`, discrepancy order `order`,
/// `samples` per training experiment, every experiment predicted by its leave-one-out
/// posterior.
DiscrepancyCalibration window_discrepancy(const WindowCalibration& fit, std::int64_t order,
                                          std::int64_t samples);

/// Writes `calibration` as JSON to `path` atomically (format "bhpm-discrepancy", version
/// 7; docs/run-folder.md), with the resolved configuration text.
void write_discrepancy_file(const std::string& path, const DiscrepancyCalibration& calibration,
                            const std::string& config);

/// What `bhpm predict` and `bhpm run` read back from a file of write_discrepancy_file.
struct DiscrepancyFile {
  double inflation = 1;        ///< kappa (1 in version 4 files, which had no such form)
  double variance = 0;         ///< tau^2
  double timescale = 0;        ///< T (0: constant in time)
  std::int64_t order = 0;      ///< m (PredictorOptions::discrepancy_order)
  bool conserve_mean = false;  ///< the spatial mean is conserved (false in version 1 files)
  std::string method = "trajectories";  ///< calibration_methods() ("trajectories" before 7)
  std::string config;                   ///< the resolved configuration that made it
};

/// Throws std::runtime_error naming the file and the field when it is unreadable, of
/// another format, of a version before 4 (whose discrepancy had another form: calibrate
/// again) or without a valid "variance", "timescale" and "order" (and, from version 5,
/// "inflation" > 0; from version 7, a "method" of calibration_methods()).
DiscrepancyFile read_discrepancy_file(const std::string& path);

}  // namespace bhpm::solve
