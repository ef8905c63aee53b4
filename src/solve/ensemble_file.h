#pragma once
/// Prediction files (`bhpm predict -o OUT.h5`): one IBVP solved under S operator samples,
/// readable with h5py alone. Layout (docs/run-folder.md, "prediction files"):
///
///   /                 format = "bhpm-ensemble", format_version = 1, plus the string
///                     attributes given (run_dir, initial_condition, sampler, solver,
///                     config, created_by, ...), samples, diverged
///   /x [n], /t [T], /u0 [n]
///   /samples/u [S, T, n]              every member; NaN from a diverged member's failure on
///   /samples/diverged [S] int64       1 for a member left out of the statistics
///   /samples/failures                 attribute: one line "sample s: why" per diverged member
///   /samples/conditioning_points [S], /samples/expected_variance [S] (final L_c),
///   /samples/converged [S]            (sampler "conditioned" only)
///   /statistics/{mean, std, p2_5, p50, p97_5} [T, n], attribute members
///   /operator_std [T, n]              sqrt(var q(f(v))) along the ensemble mean
///   /truth/u [T, n], attributes relative_l2, rmse, coverage95   (when the truth is known)

#include <ATen/core/Tensor.h>

#include <map>
#include <optional>
#include <string>

#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"

namespace bhpm::solve {

struct EnsembleRecord {
  const solve::Prediction* prediction = nullptr;
  const solve::EnsembleStatistics* statistics = nullptr;
  at::Tensor u0;            ///< [n]
  at::Tensor operator_std;  ///< [T, n]
  at::Tensor truth;         ///< [T, n] or undefined
  std::optional<solve::TruthComparison> comparison;
  std::map<std::string, std::string> attributes;  ///< root string attributes
};

/// Writes the record to `path` atomically (temporary file, then rename).
void write_ensemble_file(const std::string& path, const EnsembleRecord& record);

}  // namespace bhpm::solve
