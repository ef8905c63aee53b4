#include "solve/discrepancy_calibration.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "io/atomic_file.h"
#include "io/json_number.h"
#include "util/number_format.h"
#include "util/scalar_minimisation.h"
#include "util/stopwatch.h"

namespace bhpm::solve {

namespace {

constexpr const char* kFormat = "bhpm-discrepancy";
constexpr std::int64_t kDiscrepancyFormatVersion = 7;
/// The oldest version read: version 4 is version 5 without spread inflation, version 5 is
/// version 6 without the transfer check, version 6 is version 7 without "method" (all
/// "trajectories").
constexpr std::int64_t kOldestVersion = 4;

/// Sound members' values at the experiment's measured points with t > 0: [S', P'].
at::Tensor values_at_measurements(const at::Tensor& sound,
                                  const CalibrationExperiment& experiment) {
  const std::int64_t n = sound.size(2);
  const at::Tensor later = experiment.index >= n;  // t_index > 0
  return sound.reshape({sound.size(0), -1}).index_select(1, experiment.index.index({later}));
}

/// The time bin in [0, kTimeBins) of output times `t_index` (integer, in 1..T-1) of T:
/// floor((k - 1) kTimeBins / (T - 1)) for output time k.
at::Tensor output_time_bins(const at::Tensor& t_index, std::int64_t times) {
  return (t_index - 1).mul(kTimeBins).div(std::max<std::int64_t>(times - 1, 1), "floor");
}

/// The time bin of each measured point with t > 0 [P'].
at::Tensor time_bins(const CalibrationExperiment& experiment) {
  const std::int64_t n = experiment.problem.grid.points();
  const std::int64_t times = pde::output_times(experiment.problem.solve).size(0);
  const at::Tensor t_index = experiment.index.index({experiment.index >= n}).div(n, "floor");
  return output_time_bins(t_index, times);
}

/// Step 2's means per time bin for the sound members' values without and with the
/// reference [S', P'] at the measured values [P'] in `bins` [P'].
void fill_spread(CandidateSpread& spread, const at::Tensor& without, const at::Tensor& with,
                 const at::Tensor& measured, const at::Tensor& bins) {
  const at::Tensor error = (without.mean(0) - measured).square();
  const at::Tensor v0 = without.var(0, /*unbiased=*/true), v1 = with.var(0, /*unbiased=*/true);
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    const at::Tensor in = bins == k;
    const std::int64_t points = in.sum().item<std::int64_t>();
    spread.points.push_back(points);
    const auto mean = [&](const at::Tensor& values) {
      return points == 0 ? 0.0 : values.index({in}).mean().item<double>();
    };
    spread.squared_error.push_back(mean(error));
    spread.variance_without.push_back(mean(v0));
    spread.variance_with.push_back(mean(v1));
  }
}

/// Per time bin, the fraction of the sound members' mean path outside the coverage of
/// `root` (fraction_outside_coverage over the output times of the bin; NaN for a bin
/// without one).
std::vector<double> bin_coverage(const gp::SparseVariationalGpImpl& root,
                                 const CalibrationExperiment& experiment, const Prediction& plain) {
  const at::Tensor sound = ~plain.ensemble.left_out();
  if (sound.sum().item<std::int64_t>() == 0) return std::vector<double>(kTimeBins, NAN);
  const at::Tensor mean = plain.ensemble.u.index({sound}).mean(0);  // [T, n]
  const at::Tensor later_std =
      operator_standard_deviation(root, experiment.problem.grid, mean).slice(0, 1);  // [T-1, n]
  const double prior = root.kernel()->prior_variance().item<double>();
  const std::int64_t times = mean.size(0);
  const at::Tensor bins = output_time_bins(at::arange(1, times, at::kLong), times);  // [T-1]
  std::vector<double> fractions;
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    const at::Tensor rows = later_std.index({bins == k});
    fractions.push_back(rows.size(0) > 0 ? fraction_outside_coverage(rows, prior) : NAN);
  }
  return fractions;
}

/// `stage` + "training experiment 1 of 4: without tau, then with tau_e^2 for each of 3 T
/// (612 s so far, about 1836 s to go)" (`settings` after the colon): the time left is the
/// mean time per experiment so far times the experiments left (a dataset's experiments
/// share one grid and, as a rule, one horizon, so they cost about alike).
std::string experiment_progress(const std::string& stage, std::size_t e, std::size_t experiments,
                                const std::string& settings, double seconds) {
  std::string line = stage + "training experiment " + std::to_string(e) + " of " +
                     std::to_string(experiments) + ": " + settings;
  if (e == 0) return line;
  const double left = seconds / static_cast<double>(e) * static_cast<double>(experiments - e);
  char times[96];
  std::snprintf(times, sizeof times, " (%.0f s so far, about %.0f s to go)", seconds, left);
  return line + times;
}

void require_indices(const CalibrationExperiment& experiment, std::size_t e) {
  const std::int64_t grid =
      pde::output_times(experiment.problem.solve).size(0) * experiment.problem.grid.points();
  const at::Tensor& index = experiment.index;
  if (!index.defined() || index.dim() != 1 || index.scalar_type() != at::kLong ||
      !experiment.measured.defined() || experiment.measured.sizes() != index.sizes() ||
      index.numel() == 0 || index.min().item<std::int64_t>() < 0 ||
      index.max().item<std::int64_t>() >= grid)
    throw std::invalid_argument("discrepancy calibration: training experiment " +
                                std::to_string(e) + ": measurement indices must be int64 in [0, " +
                                std::to_string(grid) + "), one per measured value");
}

/// Step 1 for training experiment e and one candidate T: the ensemble with the reference
/// tau_e^2 (from `reference`, divided by 4 while fewer than 2 members are sound in both it
/// and `plain`) and step 2's spread; sound_samples < 2 when it has to be left out.
CandidateSpread candidate_spread(const gp::SparseVariationalGpImpl& root,
                                 const CalibrationExperiment& experiment, const std::string& name,
                                 const Prediction& plain, PredictorOptions options,
                                 double reference, const PredictionProgress& progress) {
  const bool plain_sound = (~plain.ensemble.left_out()).sum().item<std::int64_t>() >= 2;
  for (int reduction = 0;; ++reduction, reference /= 4.0) {
    options.discrepancy_variance = reference;
    const Prediction widened = predict_ensemble(root, experiment.problem, options);
    // Both ensembles over the members sound in both, so that they differ by tau alone.
    const at::Tensor sound = ~(plain.ensemble.left_out() | widened.ensemble.left_out());
    const std::int64_t count = sound.sum().item<std::int64_t>();
    if (count >= 2 || reduction == kMaxReferenceReductions || !plain_sound) {
      CandidateSpread spread;
      spread.timescale = options.discrepancy_timescale;
      spread.sound_samples = count;
      spread.reference_variance = reference;
      if (count < 2) {
        spread.points.assign(kTimeBins, 0);
        spread.squared_error.assign(kTimeBins, 0.0);
        spread.variance_without.assign(kTimeBins, 0.0);
        spread.variance_with.assign(kTimeBins, 0.0);
        return spread;
      }
      const at::Tensor later = experiment.index >= experiment.problem.grid.points();
      fill_spread(spread, values_at_measurements(plain.ensemble.u.index({sound}), experiment),
                  values_at_measurements(widened.ensemble.u.index({sound}), experiment),
                  experiment.measured.index({later}), time_bins(experiment));
      return spread;
    }
    if (progress)
      progress(name + ": fewer than 2 sound samples with tau_e^2 = " +
               util::format_significant(reference, 6) + ", trying a quarter of it");
  }
}

/// Step 1 for training experiment e: its plain ensemble and one spread per candidate T.
std::vector<CandidateSpread> experiment_spreads(const gp::SparseVariationalGpImpl& root,
                                                const CalibrationExperiment& experiment,
                                                std::int64_t e, PredictorOptions options,
                                                const std::vector<double>& timescales,
                                                double reference,
                                                const PredictionProgress& progress) {
  const std::string name = "training experiment " + std::to_string(e);
  options.discrepancy_variance = 0.0;
  const Prediction plain = predict_ensemble(root, experiment.problem, options);
  const std::vector<double> coverage = bin_coverage(root, experiment, plain);
  std::vector<CandidateSpread> spreads;
  for (const double timescale : timescales) {
    options.discrepancy_timescale = timescale;
    spreads.push_back(
        candidate_spread(root, experiment, name, plain, options, reference, progress));
    spreads.back().outside_coverage = coverage;
  }
  return spreads;
}

/// One experiment's time bin for one candidate T: step 2's error E of the infinite
/// ensemble's mean, spread V0 without the discrepancy and its growth G per unit tau^2, and
/// whether its path lies within the data's coverage (CandidateSpread::outside_coverage at
/// most kCoveredPathTolerance; a spread that did not measure it counts as covered).
struct SpreadBin {
  double error = 0, without = 0, growth = 0;
  bool covered = true;
};

/// The bins of every experiment kept for a candidate (2 sound members or more, points in
/// the bin, E > 0 and V0 > 0); epsilon^2 = noise_variance. A negative G (sampling noise:
/// the members share their seeds, so V1 < V0 is rare) counts as 0.
std::vector<SpreadBin> spread_bins(const std::vector<CandidateSpread>& spreads,
                                   double noise_variance) {
  std::vector<SpreadBin> bins;
  for (const CandidateSpread& spread : spreads) {
    if (spread.sound_samples < 2) continue;  // no spread to compare: left out, and said so
    const auto members = static_cast<double>(spread.sound_samples);
    for (std::size_t k = 0; k < spread.points.size(); ++k) {
      SpreadBin bin;
      bin.without = spread.variance_without[k];
      bin.error = spread.squared_error[k] - bin.without / members - noise_variance;
      bin.growth =
          std::max(0.0, (spread.variance_with[k] - bin.without) / spread.reference_variance);
      bin.covered = k >= spread.outside_coverage.size() ||
                    spread.outside_coverage[k] <= kCoveredPathTolerance;
      if (spread.points[k] > 0 && bin.error > 0.0 && bin.without > 0.0) bins.push_back(bin);
    }
  }
  return bins;
}

/// Step 3's bins among `bins`: those whose path the data cover, or all of them when none
/// is; `off_data` gets how many were left out.
std::vector<SpreadBin> fitted_bins(const std::vector<SpreadBin>& bins, std::int64_t& off_data) {
  std::vector<SpreadBin> covered;
  for (const SpreadBin& bin : bins)
    if (bin.covered) covered.push_back(bin);
  if (covered.empty()) {
    off_data = 0;
    return bins;
  }
  off_data = static_cast<std::int64_t>(bins.size() - covered.size());
  return covered;
}

/// sum over the bins of ln^2((V0 + tau^2 G) / E).
double log_ratio_misfit(const std::vector<SpreadBin>& bins, double variance) {
  double misfit = 0;
  for (const SpreadBin& bin : bins)
    misfit += std::pow(std::log((bin.without + variance * bin.growth) / bin.error), 2);
  return misfit;
}

/// sum over the bins of ln^2(kappa V0 / E).
double inflation_misfit(const std::vector<SpreadBin>& bins, double factor) {
  double misfit = 0;
  for (const SpreadBin& bin : bins)
    misfit += std::pow(std::log(factor * bin.without / bin.error), 2);
  return misfit;
}

/// The bins that steps 3 and 5 fit among `spreads`' (NaN-free misfits need at least one).
std::vector<SpreadBin> fitted_spread_bins(const std::vector<CandidateSpread>& spreads,
                                          double noise_variance) {
  std::int64_t off_data = 0;
  return fitted_bins(spread_bins(spreads, noise_variance), off_data);
}

/// Steps 1-2 for every experiment, each predicted by the posterior `posterior_of` gives it,
/// at `timescales`: [experiment][candidate]; `stage` starts every progress line.
template <typename PosteriorOf>
std::vector<std::vector<CandidateSpread>> solve_spreads(
    const std::vector<CalibrationExperiment>& experiments, const PosteriorOf& posterior_of,
    const PredictorOptions& options, const std::vector<double>& timescales, double reference,
    const std::string& stage, const PredictionProgress& progress) {
  std::string settings = "without tau, then with tau_e^2 ";
  settings += timescales.size() == 1 ? "at T = " + util::format_significant(timescales.front(), 3)
                                     : "for each of " + std::to_string(timescales.size()) + " T";
  const util::Stopwatch stopwatch;
  std::vector<std::vector<CandidateSpread>> spreads;
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    if (progress)
      progress(experiment_progress(stage, e, experiments.size(), settings, stopwatch.seconds()));
    spreads.push_back(experiment_spreads(posterior_of(experiments[e]), experiments[e],
                                         static_cast<std::int64_t>(e), options, timescales,
                                         reference, progress));
  }
  return spreads;
}

/// Column `candidate` of spreads [experiment][candidate].
std::vector<CandidateSpread> candidate_column(
    const std::vector<std::vector<CandidateSpread>>& spreads, std::size_t candidate) {
  std::vector<CandidateSpread> column;
  for (const std::vector<CandidateSpread>& experiment : spreads)
    column.push_back(experiment.at(candidate));
  return column;
}

/// kTimescaleFractions times the longest training horizon.
std::vector<double> candidate_timescales(const std::vector<CalibrationExperiment>& experiments) {
  double horizon = 0;
  for (const CalibrationExperiment& experiment : experiments)
    horizon = std::max(horizon, experiment.problem.solve.t_end);
  std::vector<double> timescales;
  for (const double fraction : kTimescaleFractions) timescales.push_back(fraction * horizon);
  return timescales;
}

}  // namespace

CandidateFit fit_candidate(double timescale, const std::vector<CandidateSpread>& spreads,
                           double noise_variance, double scale) {
  CandidateFit fit;
  fit.timescale = timescale;
  const std::vector<SpreadBin> bins =
      fitted_bins(spread_bins(spreads, noise_variance), fit.off_data_bins);
  fit.bins = static_cast<std::int64_t>(bins.size());
  if (bins.empty()) return fit;
  const auto at = [scale](double log10_ratio) { return scale * std::pow(10.0, log10_ratio); };
  const double best_log = util::minimise_on_grid(
      [&](double log10_ratio) { return log_ratio_misfit(bins, at(log10_ratio)); }, -8.0, 4.0, 0.05);
  fit.variance = at(best_log);
  fit.misfit = log_ratio_misfit(bins, fit.variance);
  const double without = log_ratio_misfit(bins, 0.0);
  if (!(fit.misfit < without)) fit.variance = 0.0, fit.misfit = without;
  return fit;
}

InflationFit fit_inflation(const std::vector<CandidateSpread>& spreads, double noise_variance) {
  InflationFit fit;
  const std::vector<SpreadBin> bins =
      fitted_bins(spread_bins(spreads, noise_variance), fit.off_data_bins);
  fit.bins = static_cast<std::int64_t>(bins.size());
  if (bins.empty()) return fit;
  double log_ratio = 0;
  for (const SpreadBin& bin : bins) log_ratio += std::log(bin.error / bin.without);
  fit.factor = std::max(1.0, std::exp(log_ratio / static_cast<double>(bins.size())));
  fit.misfit = inflation_misfit(bins, fit.factor);
  return fit;
}

TransferCheck check_transfer(const std::vector<CandidateSpread>& transfer,
                             const std::vector<CandidateSpread>& constant,
                             const std::vector<CandidateSpread>& chosen, double inflation,
                             double variance, double noise_variance, double scale) {
  TransferCheck check;
  check.experiments = transfer;
  check.inflation = fit_inflation(transfer, noise_variance);
  const double timescale = chosen.empty() ? 0.0 : chosen.front().timescale;
  check.discrepancy = fit_candidate(timescale, transfer, noise_variance, scale);
  const std::vector<SpreadBin> inflation_bins = fitted_spread_bins(constant, noise_variance);
  if (std::isfinite(check.inflation.misfit) && !inflation_bins.empty()) {
    check.inflation_misfit = inflation_misfit(inflation_bins, check.inflation.factor);
    check.inflation_loss = check.inflation_misfit - inflation_misfit(inflation_bins, inflation);
  }
  const std::vector<SpreadBin> discrepancy_bins = fitted_spread_bins(chosen, noise_variance);
  if (std::isfinite(check.discrepancy.misfit) && !discrepancy_bins.empty()) {
    check.discrepancy_misfit = log_ratio_misfit(discrepancy_bins, check.discrepancy.variance);
    check.discrepancy_loss =
        check.discrepancy_misfit - log_ratio_misfit(discrepancy_bins, variance);
  }
  return check;
}

DiscrepancyCalibration calibrate_discrepancy(const gp::SparseVariationalGpImpl& root,
                                             const std::vector<CalibrationExperiment>& experiments,
                                             const PredictorOptions& options, double noise_variance,
                                             const PredictionProgress& progress) {
  if (experiments.empty())
    throw std::invalid_argument("discrepancy calibration: no training experiment");
  if (options.samples < 2)
    throw std::invalid_argument("discrepancy calibration: samples must be >= 2 (got " +
                                std::to_string(options.samples) + ")");
  DiscrepancyCalibration calibration;
  calibration.reference_variance = root.likelihood()->variance().item<double>();
  calibration.noise_variance = noise_variance;
  calibration.samples = options.samples;
  calibration.order = options.discrepancy_order;
  calibration.conserve_mean = options.conserve_mean;
  calibration.leave_one_out = true;
  for (const CalibrationExperiment& experiment : experiments)
    calibration.leave_one_out = calibration.leave_one_out && experiment.leave_one_out_root;
  const std::vector<double> timescales = candidate_timescales(experiments);
  for (std::size_t e = 0; e < experiments.size(); ++e) require_indices(experiments[e], e);
  calibration.experiments = solve_spreads(
      experiments,
      [&root](const CalibrationExperiment& experiment) -> const gp::SparseVariationalGpImpl& {
        return experiment.leave_one_out_root ? *experiment.leave_one_out_root : root;
      },
      options, timescales, calibration.reference_variance, "", progress);
  std::size_t best = 0;
  bool any = false;
  for (std::size_t c = 0; c < timescales.size(); ++c) {
    calibration.candidates.push_back(fit_candidate(timescales[c],
                                                   candidate_column(calibration.experiments, c),
                                                   noise_variance, calibration.reference_variance));
    const CandidateFit& fit = calibration.candidates.back();
    any = any || std::isfinite(fit.misfit);
    if (fit.variance > 0.0 && std::isfinite(fit.misfit) &&
        !(calibration.candidates[best].misfit <= fit.misfit))
      best = c;
  }
  if (!any)
    throw std::runtime_error(
        "discrepancy calibration: no training experiment has 2 samples that are sound (neither "
        "diverged nor rejected as ill-posed) with and without the reference discrepancy");
  const std::vector<CandidateSpread> constant = candidate_column(calibration.experiments, 0);
  calibration.inflation_fit = fit_inflation(constant, noise_variance);
  bool inflate = calibration.inflation_fit.misfit < calibration.candidates[best].misfit;
  const bool transfer = std::all_of(
      experiments.begin(), experiments.end(),
      [](const CalibrationExperiment& experiment) { return bool(experiment.leave_two_out_root); });
  if (transfer) {
    const double timescale = calibration.candidates[best].timescale;
    const auto spreads = solve_spreads(
        experiments,
        [](const CalibrationExperiment& experiment) -> const gp::SparseVariationalGpImpl& {
          return *experiment.leave_two_out_root;
        },
        options, {timescale}, calibration.reference_variance, "transfer check, ", progress);
    calibration.transfer = check_transfer(
        candidate_column(spreads, 0), constant, candidate_column(calibration.experiments, best),
        calibration.inflation_fit.factor, calibration.candidates[best].variance, noise_variance,
        calibration.reference_variance);
    if (calibration.transfer.decides())
      inflate = calibration.transfer.inflation_loss < calibration.transfer.discrepancy_loss;
  }
  if (inflate) {
    calibration.inflation = calibration.inflation_fit.factor;
    return calibration;  // tau^2 = 0, T = 0
  }
  calibration.variance = calibration.candidates[best].variance;
  calibration.timescale = calibration.candidates[best].timescale;
  return calibration;
}

namespace {

nlohmann::ordered_json candidate_json(const CandidateFit& fit) {
  return {{"timescale", fit.timescale},
          {"variance", fit.variance},
          {"bins", fit.bins},
          {"off_data_bins", fit.off_data_bins},
          {"misfit", io::finite_or_null(fit.misfit)}};
}

nlohmann::ordered_json inflation_json(const InflationFit& fit) {
  return {{"factor", fit.factor},
          {"bins", fit.bins},
          {"off_data_bins", fit.off_data_bins},
          {"misfit", io::finite_or_null(fit.misfit)}};
}

nlohmann::ordered_json spread_json(const CandidateSpread& spread) {
  return {{"timescale", spread.timescale},
          {"sound_samples", spread.sound_samples},
          {"reference_variance", spread.reference_variance},
          {"points", spread.points},
          {"squared_error", spread.squared_error},
          {"variance_without", spread.variance_without},
          {"variance_with_reference", spread.variance_with},
          {"outside_coverage", spread.outside_coverage}};
}

/// Step 6 (null when it was not done): both fits on the leave-two-out ensembles, their
/// misfits and losses carried over to the leave-one-out ones, and the leave-two-out
/// spreads per experiment.
nlohmann::ordered_json transfer_json(const TransferCheck& check) {
  if (check.experiments.empty()) return nullptr;
  nlohmann::ordered_json spreads = nlohmann::ordered_json::array();
  for (const CandidateSpread& spread : check.experiments) spreads.push_back(spread_json(spread));
  return {{"inflation_candidate", inflation_json(check.inflation)},
          {"candidate", candidate_json(check.discrepancy)},
          {"inflation_transfer_misfit", io::finite_or_null(check.inflation_misfit)},
          {"variance_transfer_misfit", io::finite_or_null(check.discrepancy_misfit)},
          {"inflation_transfer_loss", io::finite_or_null(check.inflation_loss)},
          {"variance_transfer_loss", io::finite_or_null(check.discrepancy_loss)},
          {"decided", check.decides()},
          {"training_experiments", spreads}};
}

/// The operator calibration: kappa, the bins fitted, the samples, and per experiment its
/// own kappa and, per time bin, E_ek, its two terms, V_ek, its parts A, B, C and the cells
/// that made them.
nlohmann::ordered_json operator_json(const OperatorCalibration& fit) {
  nlohmann::ordered_json experiments = nlohmann::ordered_json::array();
  for (const OperatorBins& bins : fit.experiments) {
    const auto finite = [](const std::vector<double>& values) {
      nlohmann::ordered_json array = nlohmann::ordered_json::array();
      for (const double value : values) array.push_back(io::finite_or_null(value));
      return array;
    };
    experiments.push_back({{"inflation", bins.factor},
                           {"cells", bins.cells},
                           {"squared_error", finite(bins.squared_error)},
                           {"left_out_squared_error", finite(bins.left_out_error)},
                           {"in_sample_squared_error", finite(bins.in_sample_error)},
                           {"variance", finite(bins.variance)},
                           {"fixed_variance", finite(bins.fixed_variance)},
                           {"cross_variance", finite(bins.cross_variance)},
                           {"inducing_variance", finite(bins.inducing_variance)}});
  }
  return {{"inflation", fit.factor},
          {"bins", fit.bins},
          {"samples", fit.samples},
          {"space_cells", kSpaceCells},
          {"minimum_cell_rows", kMinimumCellRows},
          {"training_experiments", experiments}};
}

/// The window calibration: kappa, the pooled coverage of the measurements before and after
/// it, and per experiment its points, members, RMS error, spread and noise, its own kappa and
/// coverage at kappa = 1.
nlohmann::ordered_json window_json(const WindowCalibration& fit) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const CoverageLevel& level : kCoverageLevels) levels.push_back(level.level);
  nlohmann::ordered_json experiments = nlohmann::ordered_json::array();
  for (const WindowExperimentFit& e : fit.experiments)
    experiments.push_back({{"experiment", e.experiment},
                           {"points", e.points},
                           {"members", e.members},
                           {"rmse", e.rmse},
                           {"spread", e.spread},
                           {"noise", e.noise},
                           {"inflation", e.factor},
                           {"coverage", e.coverage}});
  return {{"inflation", fit.factor},
          {"levels", levels},
          {"coverage_before", fit.coverage_before},
          {"coverage_after", fit.coverage_after},
          {"training_experiments", experiments},
          {"left_out", fit.left_out}};
}

}  // namespace

const std::vector<std::string>& calibration_methods() {
  static const std::vector<std::string> methods = {"trajectories", "operator", "windows"};
  return methods;
}

namespace {

/// A calibration of the spread factor alone: `method`, kappa, discrepancy order `order`,
/// every experiment scored by its leave-one-out posterior.
DiscrepancyCalibration factor_only(const std::string& method, double factor, std::int64_t order) {
  DiscrepancyCalibration calibration;
  calibration.method = method;
  calibration.inflation = factor;
  calibration.order = order;
  calibration.leave_one_out = true;
  return calibration;
}

}  // namespace

DiscrepancyCalibration operator_discrepancy(const OperatorCalibration& fit, std::int64_t order,
                                            double noise_variance) {
  DiscrepancyCalibration calibration = factor_only("operator", fit.factor, order);
  calibration.operator_fit = fit;
  calibration.noise_variance = noise_variance;
  return calibration;
}

DiscrepancyCalibration window_discrepancy(const WindowCalibration& fit, std::int64_t order,
                                          std::int64_t samples) {
  DiscrepancyCalibration calibration = factor_only("windows", fit.factor, order);
  calibration.window_fit = fit;
  calibration.samples = samples;
  return calibration;
}

void write_discrepancy_file(const std::string& path, const DiscrepancyCalibration& calibration,
                            const std::string& config) {
  nlohmann::ordered_json document;
  document["format"] = kFormat;
  document["format_version"] = kDiscrepancyFormatVersion;
  document["method"] = calibration.method;
  document["inflation"] = calibration.inflation;
  document["variance"] = calibration.variance;
  document["timescale"] = calibration.timescale;
  document["order"] = calibration.order;
  document["reference_variance"] = calibration.reference_variance;
  document["noise_variance"] = calibration.noise_variance;
  document["samples"] = calibration.samples;
  document["conserve_mean"] = calibration.conserve_mean;
  document["leave_one_out"] = calibration.leave_one_out;
  if (std::isfinite(calibration.mean_drift)) document["mean_drift"] = calibration.mean_drift;
  if (std::isfinite(calibration.total_derivative_residual))
    document["total_derivative_residual"] = calibration.total_derivative_residual;
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const CandidateFit& fit : calibration.candidates) candidates.push_back(candidate_json(fit));
  document["candidates"] = candidates;
  document["inflation_candidate"] = inflation_json(calibration.inflation_fit);
  document["time_bins"] = kTimeBins;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t e = 0; e < calibration.experiments.size(); ++e) {
    nlohmann::ordered_json spreads = nlohmann::ordered_json::array();
    for (const CandidateSpread& spread : calibration.experiments[e])
      spreads.push_back(spread_json(spread));
    rows.push_back({{"experiment", e}, {"candidates", spreads}});
  }
  document["training_experiments"] = rows;
  document["transfer"] = transfer_json(calibration.transfer);
  if (calibration.method == "operator")
    document["operator"] = operator_json(calibration.operator_fit);
  if (calibration.method == "windows") document["windows"] = window_json(calibration.window_fit);
  document["config"] = config;
  io::write_text_atomically(path, document.dump(2) + "\n");
}

DiscrepancyFile read_discrepancy_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot be read");
  const nlohmann::json document = nlohmann::json::parse(file, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    throw std::runtime_error(path + ": not a JSON object");
  if (document.value("format", std::string()) != kFormat)
    throw std::runtime_error(path + ": format must be \"" + kFormat + "\"");
  const auto version = document.value("format_version", std::int64_t{0});
  if (version > kDiscrepancyFormatVersion)
    throw std::runtime_error(path + ": format_version is newer than " +
                             std::to_string(kDiscrepancyFormatVersion));
  if (version < kOldestVersion)
    throw std::runtime_error(path + ": format_version " + std::to_string(version) +
                             " holds a discrepancy of an earlier form (versions 1-2: a "
                             "widened inducing draw; 3: a field on every derivative of u); run "
                             "`bhpm calibrate` again");
  const auto variance = document.find("variance");
  if (variance == document.end() || !variance->is_number() ||
      !std::isfinite(variance->get<double>()) || variance->get<double>() < 0.0)
    throw std::runtime_error(path + ": \"variance\" must be a number >= 0");
  const auto timescale = document.find("timescale");
  if (timescale == document.end() || !timescale->is_number() ||
      !std::isfinite(timescale->get<double>()) || timescale->get<double>() < 0.0)
    throw std::runtime_error(path + ": \"timescale\" must be a number >= 0");
  const auto order = document.find("order");
  if (order == document.end() || !order->is_number_integer() || order->get<std::int64_t>() < 0)
    throw std::runtime_error(path + ": \"order\" must be an integer >= 0");
  double inflation = 1.0;
  if (version >= 5) {
    const auto factor = document.find("inflation");
    if (factor == document.end() || !factor->is_number() || !std::isfinite(factor->get<double>()) ||
        factor->get<double>() <= 0.0)
      throw std::runtime_error(path + ": \"inflation\" must be a number > 0");
    inflation = factor->get<double>();
  }
  const auto conserve_mean = document.find("conserve_mean");
  if (conserve_mean != document.end() && !conserve_mean->is_boolean())
    throw std::runtime_error(path + ": \"conserve_mean\" must be true or false");
  std::string method = "trajectories";
  if (version >= 7) {
    method = document.value("method", std::string());
    const std::vector<std::string>& methods = calibration_methods();
    if (std::find(methods.begin(), methods.end(), method) == methods.end())
      throw std::runtime_error(
          path + ": \"method\" must be \"trajectories\", \"operator\" or \"windows\"");
  }
  return {inflation,
          variance->get<double>(),
          timescale->get<double>(),
          order->get<std::int64_t>(),
          conserve_mean != document.end() && conserve_mean->get<bool>(),
          method,
          document.value("config", std::string())};
}

}  // namespace bhpm::solve
