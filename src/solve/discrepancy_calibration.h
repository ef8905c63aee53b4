#pragma once
/// The model-discrepancy variance tau^2, calibrated on the training experiments
/// (docs/numerics.md, "Model discrepancy"; `bhpm calibrate`). The root's posterior treats
/// the leaves' v = (u, u_x, ..) and u_t as exact, so where the data are it is sure of an f
/// that the leaves' errors have biased; every operator sample therefore draws its inducing
/// outputs from q(u) widened by (tau^2 / s^2) K_zz (gp/sparse_variational_gp.h,
/// draw_whitened). tau^2 is chosen so that, on the training experiments' own initial
/// conditions and horizons, the ensembles' spread matches their error at the measured
/// points (held-out experiments are never used):
///   1. predict every training experiment e from its u0 twice with the same seeds, with
///      tau = 0 and with a reference tau_e^2: sigma_f^2 (the likelihood's variance), or
///      sigma_f^2 / 4^j for the smallest j <= kMaxReferenceReductions at which at least 2
///      members are sound in both (a large reference can make every sample ill-posed: KdV);
///   2. at its measured points y_ep (t > 0), with ensemble means m0 and variances V0, V1
///      over S samples, pool over e, p:
///        E = mean (m0 - y)^2 - V0 / S - epsilon^2   (error of the infinite ensemble's mean,
///                                                    measurement noise epsilon removed; S
///                                                    the experiment's sound samples),
///        V0 = mean V0,  G = mean (V1 - V0) / tau_e^2  (the spread's growth per unit tau^2);
///   3. the spread grows linearly in tau^2 for small tau (a linear response), so
///        tau^2 = max(0, E - V0) / G
///      makes the ensemble variance equal the squared error: err/spread = 1 on the training
///      experiments. tau^2 = 0 when the spread already covers the error.

#include <ATen/core/Tensor.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gp/sparse_variational_gp.h"
#include "solve/predictor.h"

namespace bhpm::solve {

/// One training experiment: its IBVP and its measurements on the problem's output grid.
struct CalibrationExperiment {
  PredictionProblem problem;  ///< u0 = the experiment's t = 0, horizon = its last time
  at::Tensor index;           ///< [P] int64: t_index * n + x_index in the [T, n] output grid
  at::Tensor measured;        ///< [P] measured u there
};

/// The pooled quantities of step 2 for one experiment (means over its points with t > 0),
/// over the members sound in both ensembles; an experiment with fewer than 2 of them is
/// left out of the pooling (points = 0).
struct ExperimentSpread {
  std::int64_t sound_samples = 0;  ///< members neither diverged nor rejected in both runs
  double squared_error = 0;        ///< mean (m0 - y)^2
  double variance_without = 0;     ///< mean V0
  double variance_with = 0;        ///< mean V1
  double reference_variance = 0;   ///< tau_e^2 of the widened run
  std::int64_t points = 0;
};

/// How many times calibrate_discrepancy divides an experiment's reference tau_e^2 by 4
/// before leaving the experiment out.
constexpr int kMaxReferenceReductions = 6;

struct DiscrepancyCalibration {
  double reference_variance = 0;  ///< sigma_f^2, the first reference tau_e^2 of every experiment
  double variance = 0;            ///< tau^2
  double noise_variance = 0;      ///< epsilon^2
  std::int64_t samples = 0;       ///< S per experiment and setting
  std::vector<ExperimentSpread> experiments;
  /// Whether the ensembles conserved the spatial mean (PredictorOptions::conserve_mean),
  /// and the training leaves' relative drift of it that decided (model/mean_drift.h; set
  /// by the caller, NaN when not measured).
  bool conserve_mean = false;
  double mean_drift = NAN;
};

/// Steps 1-3 with `options` (its samples, sampler, solver, seed; its discrepancy_variance
/// is ignored). Throws std::invalid_argument for no experiment, fewer than 2 samples or
/// bad indices, std::runtime_error when no experiment has 2 sound members.
DiscrepancyCalibration calibrate_discrepancy(const gp::SparseVariationalGpImpl& root,
                                             const std::vector<CalibrationExperiment>& experiments,
                                             const PredictorOptions& options, double noise_variance,
                                             const PredictionProgress& progress = {});

/// Writes `calibration` as JSON to `path` atomically (format "bhpm-discrepancy", version
/// 2; docs/run-folder.md), with the resolved configuration text.
void write_discrepancy_file(const std::string& path, const DiscrepancyCalibration& calibration,
                            const std::string& config);

/// What `bhpm predict` and `bhpm run` read back from a file of write_discrepancy_file.
struct DiscrepancyFile {
  double variance = 0;         ///< tau^2
  bool conserve_mean = false;  ///< the spatial mean is conserved (false in version 1 files)
  std::string config;          ///< the resolved configuration that made it
};

/// Throws std::runtime_error naming the file and the field when it is unreadable, of
/// another format or without a valid "variance".
DiscrepancyFile read_discrepancy_file(const std::string& path);

}  // namespace bhpm::solve
