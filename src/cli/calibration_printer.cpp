#include "cli/calibration_printer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "util/number_format.h"

namespace bhpm::cli {

namespace {

/// "17 bins; 3 left out, their paths more than 1.0 % outside the data's coverage".
std::string fitted_bins_text(std::int64_t bins, std::int64_t off_data) {
  std::string text = std::to_string(bins) + " bins";
  if (off_data > 0)
    text += "; " + std::to_string(off_data) + " left out, their paths more than " +
            util::format_percent(solve::kCoveredPathTolerance) + " outside the data's coverage";
  return text;
}

/// Which of step 6's fits sit at their bounds, e.g. "kappa = 1 at its bound".
std::string fits_at_bounds_text(const solve::TransferCheck& check) {
  const bool kappa = check.inflation.factor <= 1, tau = check.discrepancy.variance <= 0;
  if (kappa && tau) return "kappa = 1 and tau^2 = 0 at their bounds";
  return kappa ? "kappa = 1 at its bound" : "tau^2 = 0 at its bound";
}

/// Step 6's fits on the leave-two-out ensembles, their misfits and losses carried over to
/// the leave-one-out ones, and which form they chose.
void print_transfer(const solve::TransferCheck& check) {
  if (check.experiments.empty()) return;
  std::printf(
      "transfer check: fitted on posteriors without 2 training experiments, kappa = %.4g and "
      "tau^2 = %.4g at T = %.3g; carried over to the leave-one-out ensembles, their misfits "
      "%.3g and %.3g, %.3g and %.3g more than the values fitted there",
      check.inflation.factor, check.discrepancy.variance, check.discrepancy.timescale,
      check.inflation_misfit, check.discrepancy_misfit, check.inflation_loss,
      check.discrepancy_loss);
  if (!check.losses_finite()) {
    std::printf(" (not both finite: the misfit above decides)\n");
    return;
  }
  if (!check.fits_inside_bounds()) {
    std::printf(
        " (%s one level lower, set by the bound and not by the data: the misfit above "
        "decides)\n",
        fits_at_bounds_text(check).c_str());
    return;
  }
  std::printf(": %s carries over better\n",
              check.inflation_loss < check.discrepancy_loss ? "kappa" : "tau^2");
}

}  // namespace

void print_calibration(const solve::DiscrepancyCalibration& calibration) {
  for (std::size_t e = 0; e < calibration.experiments.size(); ++e) {
    for (const solve::CandidateSpread& spread : calibration.experiments[e]) {
      if (spread.sound_samples < 2) {
        std::printf(
            "training experiment %zu, T = %.3g: left out (%lld sound samples in both "
            "settings)\n",
            e, spread.timescale, static_cast<long long>(spread.sound_samples));
        continue;
      }
      std::printf(
          "training experiment %zu, T = %.3g, tau_e^2 = %.3g: RMSE of the mean / RMS "
          "spread without / with it, by fifth of the horizon:",
          e, spread.timescale, spread.reference_variance);
      for (std::size_t k = 0; k < spread.points.size(); ++k)
        std::printf(" %.2g/%.2g/%.2g", std::sqrt(spread.squared_error[k]),
                    std::sqrt(spread.variance_without[k]), std::sqrt(spread.variance_with[k]));
      std::printf("; outside coverage:");
      for (const double fraction : spread.outside_coverage) std::printf(" %.3g", fraction);
      std::printf("\n");
    }
  }
  for (const solve::CandidateFit& fit : calibration.candidates)
    std::printf("T = %.3g: tau^2 = %.4g, misfit of the spread over time %.3g (%s)\n", fit.timescale,
                fit.variance, fit.misfit, fitted_bins_text(fit.bins, fit.off_data_bins).c_str());
  const solve::InflationFit& inflation = calibration.inflation_fit;
  std::printf("spread inflation: kappa = %.4g, misfit of the spread over time %.3g (%s)\n",
              inflation.factor, inflation.misfit,
              fitted_bins_text(inflation.bins, inflation.off_data_bins).c_str());
  print_transfer(calibration.transfer);
  if (calibration.inflation != 1.0) {
    std::printf(
        "model discrepancy: the posterior's spread scaled by kappa = %.4g in variance (sqrt: "
        "%.3g; above 1 only q(u)'s share of it)\n",
        calibration.inflation, std::sqrt(calibration.inflation));
    return;
  }
  std::printf(
      "model discrepancy: tau^2 = %.4g (tau = %.3g; sigma_f^2 = %.4g), timescale T = %.3g "
      "(0: constant in time), on derivatives of order <= %lld\n",
      calibration.variance, std::sqrt(calibration.variance), calibration.reference_variance,
      calibration.timescale, static_cast<long long>(calibration.order));
}

void print_operator_calibration(const solve::DiscrepancyCalibration& calibration) {
  const solve::OperatorCalibration& fit = calibration.operator_fit;
  for (std::size_t e = 0; e < fit.experiments.size(); ++e) {
    const solve::OperatorBins& bins = fit.experiments[e];
    std::printf(
        "training experiment %zu, its leaf rows scored by the root's posterior without it: "
        "RMS error / RMS in-sample error / RMS spread of the cell means, by fifth of its "
        "window:",
        e);
    for (std::size_t k = 0; k < bins.cells.size(); ++k)
      std::printf(" %.2g/%.2g/%.2g", std::sqrt(bins.left_out_error[k]),
                  std::sqrt(bins.in_sample_error[k]), std::sqrt(bins.variance[k]));
    std::printf("; kappa = %.4g alone\n", bins.factor);
  }
  std::printf(
      "model discrepancy (from the measurements alone): the posterior's spread scaled by kappa = "
      "%.4g in variance (sqrt: %.3g; above 1 only q(u)'s share of it), so that the bands hold "
      "the left-out errors (less the in-sample error) of %lld time bins at 50, 90 and 95 %% on "
      "average, %lld samples per experiment\n",
      calibration.inflation, std::sqrt(calibration.inflation), static_cast<long long>(fit.bins),
      static_cast<long long>(fit.samples));
}

void print_window_calibration(const solve::DiscrepancyCalibration& calibration) {
  const solve::WindowCalibration& fit = calibration.window_fit;
  const auto percentages = [](const std::vector<double>& shares) {
    std::string text;
    for (const double share : shares)
      text += (text.empty() ? "" : " / ") + util::format_percent(share);
    return text;
  };
  for (const std::int64_t e : fit.left_out)
    std::printf(
        "training experiment %lld on its window: left out of the fit (fewer than 2 of its "
        "samples stayed sound)\n",
        static_cast<long long>(e));
  for (const solve::WindowExperimentFit& own : fit.experiments) {
    std::printf(
        "training experiment %lld on its window, by the root's posterior without it (%lld "
        "members): %lld measurements, RMS error of the mean %.3g, RMS spread %.3g, noise %.3g; "
        "inside the 50 / 90 / 95 %% bands %s; kappa = %.4g alone\n",
        static_cast<long long>(own.experiment), static_cast<long long>(own.members),
        static_cast<long long>(own.points), own.rmse, own.spread, own.noise,
        percentages(own.coverage).c_str(), own.factor);
  }
  std::printf(
      "model discrepancy (from the experiments' own windows): the posterior's spread scaled by "
      "kappa = %.4g in variance (sqrt: %.3g; above 1 only q(u)'s share of it); the "
      "measurements inside the 50 / 90 / 95 %% bands, each experiment weighted alike: %s at "
      "kappa = 1, %s at kappa\n",
      calibration.inflation, std::sqrt(calibration.inflation),
      percentages(fit.coverage_before).c_str(), percentages(fit.coverage_after).c_str());
}

}  // namespace bhpm::cli
