#pragma once
/// What `bhpm predict` prints after its solve: the samples that diverged, were rejected or
/// repaired (under mpirun with the rank that solved each), Algorithm 1's conditioning
/// points, the time steps, the ensemble's spread and, against a stored truth, the error
/// of the mean and the 95 % band's coverage; and the warning when the path leaves the
/// data's coverage.

#include <optional>

#include "cli/mpi_job.h"
#include "solve/ensemble_statistics.h"
#include "solve/predictor.h"

namespace bhpm::cli {

/// The summary on stdout.
void print_summary(const solve::Prediction& prediction, const solve::EnsembleStatistics& statistics,
                   const std::optional<solve::TruthComparison>& comparison, const MpiJob& job);

/// The warning on stderr when more than solve::kCoveredPathTolerance of the path (x, t)
/// lies where the root's posterior variance of f exceeds a tenth of its prior variance.
void print_coverage_warning(double outside);

}  // namespace bhpm::cli
