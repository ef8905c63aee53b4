#pragma once
/// Prints training progress to stderr, one line per report:
///   leaves  1200/10000  nll -2.3104  sigma[0] 0.0121 ...  85.2 it/s  1m43s left

#include <cstdint>
#include <vector>

#include "model/training_progress.h"

namespace bhpm::cli {

/// A TrainingCallback that prints each report; silent when `quiet`.
model::TrainingCallback training_printer(bool quiet);

/// Prints phase 1's early stopping to stdout (nothing when `kept_iterations` is empty):
///   leaves kept at iterations 8400 12000 ...; RMS residual on kept-back points 0.0253 ...
void print_leaf_early_stopping(const std::vector<std::int64_t>& kept_iterations,
                               const std::vector<double>& validation_rmse);

}  // namespace bhpm::cli
