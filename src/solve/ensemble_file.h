#pragma once
/// Prediction files (`bhpm predict -o OUT.h5`): one IBVP solved under S operator samples,
/// readable with h5py alone. Layout (docs/run-folder.md, "Prediction files"):
///
///   /                 format = "bhpm-ensemble", format_version = 1, plus the string
///                     attributes given (run_dir, initial_condition, sampler, solver,
///                     config, created_by, ...), samples, diverged, rejected, repaired,
///                     discrepancy_variance (tau^2 of the samples' discrepancy term, 0: none),
///                     discrepancy_timescale (its T, 0: constant in time; gp/discrepancy_field.h),
///                     discrepancy_order (the highest derivative of u it depends on),
///                     outside_coverage (fraction of (x, t) where the root's posterior
///                     variance exceeds a tenth of its prior variance; solve/predictor.h)
///   /x [n], /t [T], /u0 [n]
///   /samples/u [S, T, n]              every member; NaN from a diverged member's failure on
///   /samples/diverged [S] int64       1 for a member left out of the statistics
///   /samples/rejected [S] int64       1 for a member rejected as ill-posed (not averaged in)
///   /samples/growth [S]               e-folds of the fastest resolved wave
///                                     (solve/well_posedness.h)
///   /samples/repaired [S] int64       1 for an ill-posed member solved with added diffusion
///   /samples/added_diffusion [S]      that diffusion's coefficient (0: not repaired)
///   /samples/failures                 attribute: one line "sample s: why" per member left out
///   /samples/conditioning_points [S], /samples/expected_variance [S] (final L_c),
///   /samples/converged [S]            (sampler "conditioned" only)
///   /statistics/{mean, std, p2_5, p50, p97_5, band_lower, band_upper} [T, n], attribute
///                                     members (band_*: the 95 % prediction band)
///   /operator_std [T, n]              sqrt(var q(f(v))) along the ensemble mean
///   /truth/u [T, n], attributes relative_l2, rmse, coverage95 (inside the band)
///                                     (when the truth is known)
///   /measurements                     a prediction on an experiment's window: attributes
///                                     points, relative_l2, rmse, coverage95 (the band of
///                                     u), measurement_coverage95 (the band of a
///                                     measurement), held_back (1: measurements no fit saw)
///   /boundary/left [C, T], /boundary/right [C, T]
///                                     on a bounded domain: each condition's data g at the
///                                     output times, an end without conditions left out;
///                                     attributes left_conditions, right_conditions: the
///                                     conditions, "; " between them, in the rows' order
///                                     ("none")

#include <ATen/core/Tensor.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "pde/boundary_conditions.h"
#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"
#include "solve/scattered_statistics.h"

namespace bhpm::solve {

struct EnsembleRecord {
  const solve::Prediction* prediction = nullptr;
  const solve::EnsembleStatistics* statistics = nullptr;
  at::Tensor u0;            ///< [n]
  at::Tensor operator_std;  ///< [T, n]
  at::Tensor truth;         ///< [T, n] or undefined
  std::optional<solve::TruthComparison> comparison;
  std::map<std::string, std::string> attributes;  ///< root string attributes
  double outside_coverage = NAN;  ///< solve::fraction_outside_coverage along the mean
  /// A bounded problem's conditions (the file's /boundary); null on a periodic domain.
  const pde::BoundaryConditions* conditions = nullptr;
  /// A window's prediction against its experiment's measurements (/measurements).
  std::optional<solve::MeasurementComparison> measurements;
  bool held_back = false;  ///< those measurements were held back from every fit
};

/// Writes the record to `path` atomically (temporary file, then rename).
void write_ensemble_file(const std::string& path, const EnsembleRecord& record);

}  // namespace bhpm::solve
