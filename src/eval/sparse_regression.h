#pragma once
/// Sparse regression of many targets on one library of terms (docs/distillation.md, "Distilled
/// equations"): sequentially thresholded least squares (STLSQ; Brunton, Proctor and Kutz
/// 2016, "Discovering governing equations from data by sparse identification of nonlinear
/// dynamical systems"; Rudy et al. 2017 for PDEs) on normalised columns,
///   theta~_j = theta_j / s_j,  s_j = RMS_p theta_j,    y~ = y / r,  r = RMS_p y,
/// so a coefficient xi~_j is term j's RMS contribution relative to y's RMS, and STLSQ
/// alternates least squares on the kept terms with dropping those with |xi~_j| < lambda
/// until the kept set stops changing. In the cross-validation below, a fit on some folds
/// measures a term's contribution on those folds' rows, |xi~_j| ||theta~_j|| < lambda ||y~||
/// over them, not by scales that include the held-out fold: a term tiny on the fitted rows
/// but large on the held-out ones (an experiment whose inputs reach where no other's do)
/// otherwise keeps a noise-fitted coefficient that wrecks the held-out fold, and the choice
/// drifts to an empty equation.
///
/// The threshold lambda of each target is chosen on the data, not fixed per equation: for
/// each candidate lambda, STLSQ is fitted on all folds of rows but one and scored by its
/// relative squared error on the left-out fold, sum (y - theta xi)^2 / sum y^2 (relative,
/// so that folds of different amplitudes weigh alike); lambda is the largest candidate whose
/// mean error over the folds is within one standard error (over the folds) of the smallest
/// (the one-standard-error rule; Hastie, Tibshirani and Friedman, "The Elements of
/// Statistical Learning", section 7.10): the sparsest equation the held-out rows cannot
/// tell from the best one. Everything runs on the J x J normal equations of each fold.
///
/// With resample_folds, each target's final fit (at its chosen lambda) is made on a
/// bootstrap resample of the folds instead of all rows: F folds drawn with replacement,
/// each entering the normal equations as often as it was drawn; its terms are measured on
/// all rows, the region the equation describes (the resample moves only the estimate).
/// Where the folds are units with independent errors (in `bhpm distill` the experiments,
/// each seen through its own leaf network), the spread of the coefficients over the targets
/// then holds how far those errors move the fit, as well as the targets' own spread (a
/// bagged posterior: Huggins and Miller 2019, "Robust inference and model criticism using
/// bagged posteriors").

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace bhpm::eval {

struct SparseRegressionOptions {
  /// Candidate thresholds lambda (>= 0, ascending; any order is sorted); the default:
  /// 0 and 10^-4 .. 1 with 8 per decade.
  std::vector<double> thresholds = default_thresholds();
  int max_iterations = 25;  ///< STLSQ rounds (>= 1) before it stops even if still changing
  /// Fit each target on its own bootstrap resample of the folds (above); false: on all rows.
  bool resample_folds = false;
  /// Seeds the resamples: target s draws from util::derive_seed(seed, "fold_resample", s).
  std::uint64_t seed = 0;

  static std::vector<double> default_thresholds();
};

struct SparseFit {
  at::Tensor coefficients;         ///< xi [S, J] in the units of theta and y (0: dropped)
  std::vector<double> thresholds;  ///< the lambda chosen for each target [S]
};

/// Fits every row of `targets` [S, P] on `theta` [P, J] (double, finite), with folds
/// `fold` [P] (int64, values 0..F-1, F >= 2, every fold non-empty). A column of zeros and a
/// target of zeros get coefficients 0. Throws std::invalid_argument naming the rule for
/// other shapes, fewer than 2 folds, an empty fold, bad options.
SparseFit sparse_regression(const at::Tensor& theta, const at::Tensor& targets,
                            const at::Tensor& fold, const SparseRegressionOptions& options);

/// Ordinary least squares of every row of `targets` [S, P] on all columns of `theta`
/// [P, J] (the projection of a known function onto the library), by the normal equations
/// of normalised columns with the same 1e-12 relative ridge as STLSQ's fits: xi [S, J].
at::Tensor least_squares(const at::Tensor& theta, const at::Tensor& targets);

}  // namespace bhpm::eval
