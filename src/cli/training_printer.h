#pragma once
/// Prints training progress to stderr, one line per report:
///   leaves  1200/10000  nll -2.3104  sigma[0] 0.0121 ...  85.2 it/s  1m43s left

#include "model/training_progress.h"

namespace bhpm::cli {

/// A TrainingCallback that prints each report; silent when `quiet`.
model::TrainingCallback training_printer(bool quiet);

}  // namespace bhpm::cli
