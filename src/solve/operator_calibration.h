#pragma once
/// The spread inflation of the operator samples fitted on the training experiments'
/// measurements alone, without solving anything (docs/calibration.md, "Calibration from
/// measurements"; `bhpm calibrate` with predict.calibration_method = "operator", the
/// default on every dataset).
///
/// A solution's error grows as the time integral of the operator's error along its path,
///   delta u(x, t) ~ int_0^t (f - m)(v(x, tau)) d tau
/// (to first order, before the linearised operator propagates it), and an ensemble's
/// spread as the same integral of its samples' deviations f_s - m. So each training
/// experiment e's left-out residuals r_p and sample deviations g_sp
/// (model/left_out_residuals.h) are averaged over cells of its window, kSpaceCells equal
/// parts in x by kTimeBins in t (cells with fewer than kMinimumCellRows rows left out):
///   rbar_c = mean_{p in c} r_p,  gbar_sc = mean_{p in c} g_sp,
/// the increments over a fifth of the window, per unit time, of the error and of each
/// sample's deviation at about one x. Parts of r that change sign within a fifth (the
/// leaves' fast errors, which the trajectory averages out too) cancel in rbar. The slow
/// part of the leaf's own error does not: r_p = (f - m_{-e})(v_p) + l_p, l the error of the
/// leaf's (v, u_t) themselves, an error no prediction has. The residuals of the posterior
/// trained with e's rows in, r^in_p = (f - m)(v_p) + l_p with m close to f there, measure
/// it, and it is subtracted as the trajectory calibration subtracts measurement noise. Per
/// experiment and time bin k,
///   E_ek = mean_{c in k} (rbar_c^2 - rbar^in_c^2),  V_ek = mean_{c in k} mean_s gbar_sc^2,
/// unbiased for the left-out posterior's squared error where l is independent of f - m_{-e}
/// and m's own error at e's rows is small, and wider where m has absorbed part of l.
/// A prediction's samples carry kappa by the rule of PredictorOptions::spread_inflation
/// (solve/predictor.h): kappa > 1 scales only the part h_sp of each deviation that q(u)'s
/// spread makes (gp/posterior_residuals.h), kappa < 1 all of it, so a bin's spread at kappa
/// is
///   V_ek(kappa) = A_ek + 2 sqrt(kappa) B_ek + kappa C_ek  (kappa >= 1),  kappa V_ek  (kappa < 1),
/// A, B, C the bin means of mean_s of abar_sc^2, abar_sc hbar_sc and hbar_sc^2, a = g - h
/// (V_ek = A + 2 B + C; without h, A = B = 0 and C = V_ek). Where the sparse posterior
/// pins f down through q(u), C is nearly all of V; A is large where a left-out experiment
/// reaches inputs far from every inducing input, or where the inducing inputs are too
/// sparse for the inputs' dimension to resolve f between them.
/// The bins' errors over their spreads differ between experiments far more than their
/// noise (docs/calibration.md, "Calibration from measurements"), so no one kappa makes every
/// bin's band right; what one kappa can do is what the pooled criteria of a calibrated
/// ensemble ask: bands that hold their nominal share of the errors over all bins. A bin's
/// cell means taken as N(0, E_ek) and its band as -+ z_p sqrt(V_ek(kappa)), the share held
/// at level p is
///   C_p(kappa) = mean_b erf(z_p sqrt(V_b(kappa) / E_b) / sqrt(2))   (1 where E_b <= 0),
/// and kappa minimises sum_{p in kCoverageLevels} (C_p(kappa) - p)^2. With A = B = 0 and
/// every E_b / V_b = c it is c; residuals scaled by a scale it by a^2. kappa < 1 narrows
/// the posterior's spread where its bands hold more than their share, as on noisy
/// measurements whose likelihood noise widened the posterior. (The geometric mean of the
/// ratios, bounded below by 1, used before, puts the typical bin at nominal coverage, and
/// with ratios as unequal as measured left the pooled 95 % band holding less; the bound
/// left bands that held more.)

#include <array>
#include <cstdint>
#include <vector>

#include "gp/posterior_residuals.h"

namespace bhpm::solve {

constexpr std::int64_t kSpaceCells = 64;
constexpr std::int64_t kMinimumCellRows = 3;

/// A nominal level p and its standard normal quantile z_p = Phi^{-1}((1 + p) / 2).
struct CoverageLevel {
  double level;
  double normal_quantile;
};
/// The levels kappa is fitted at: the pooled criteria's 50 and 95 % and the 90 % between.
constexpr std::array<CoverageLevel, 3> kCoverageLevels = {
    {{0.5, 0.6744897501960817}, {0.9, 1.6448536269514722}, {0.95, 1.959963984540054}}};
/// The largest kappa the fit considers, and its inverse the smallest.
constexpr double kLargestFactor = 1e6;

/// One bin's error and spread: E_b and the parts of V_b(kappa).
struct BinSpread {
  double error = 0;     ///< E_b
  double fixed = 0;     ///< A_b, the spread q(u) does not make
  double cross = 0;     ///< B_b
  double inducing = 0;  ///< C_b, the spread q(u) makes
  /// V_b(kappa): A_b + 2 sqrt(kappa) B_b + kappa C_b for kappa >= 1, kappa (A_b + 2 B_b +
  /// C_b) below.
  double variance(double kappa) const;
};

/// One experiment's bins: E_ek and V_ek, the cells that made them (NaN and 0: no cell).
struct OperatorBins {
  std::vector<double> squared_error;      ///< [kTimeBins] E_ek
  std::vector<double> left_out_error;     ///< [kTimeBins] mean_c rbar_c^2
  std::vector<double> in_sample_error;    ///< [kTimeBins] mean_c rbar^in_c^2 (0: not known)
  std::vector<double> variance;           ///< [kTimeBins] V_ek = V_ek(1)
  std::vector<double> fixed_variance;     ///< [kTimeBins] A_ek
  std::vector<double> cross_variance;     ///< [kTimeBins] B_ek
  std::vector<double> inducing_variance;  ///< [kTimeBins] C_ek
  std::vector<std::int64_t> cells;        ///< [kTimeBins]
  double factor = 1;                      ///< the experiment's own kappa (its bins alone)
};

struct OperatorCalibration {
  double factor = 1;                      ///< kappa > 0
  std::int64_t bins = 0;                  ///< (e, k) bins fitted: V_ek > 0, E_ek known
  std::int64_t samples = 0;               ///< S per experiment
  std::vector<OperatorBins> experiments;  ///< [N]
};

/// The bins of one experiment (in_sample undefined: nothing subtracted). Throws
/// std::invalid_argument for rows outside its window, shapes that disagree or a window of
/// no extent.
OperatorBins operator_bins(const gp::PosteriorResiduals& experiment);

/// C_p(kappa) over `bins` (at least one; kappa > 0). Throws std::invalid_argument
/// otherwise.
double gaussian_bins_coverage(const std::vector<BinSpread>& bins, double kappa,
                              const CoverageLevel& level);

/// The fit from one gp::PosteriorResiduals per training experiment (N >= 2). Throws
/// std::invalid_argument for fewer than 2 experiments, as operator_bins, and when no bin
/// has both a known error and a positive spread.
OperatorCalibration calibrate_operator(const std::vector<gp::PosteriorResiduals>& experiments);

}  // namespace bhpm::solve
