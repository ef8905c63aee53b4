#pragma once
/// `mpirun -n P bhpm predict`: the S operator samples shared out over the ranks, and the
/// shares gathered on rank 0, which writes the file (docs/parallel.md). Each rank draws and
/// solves its own members from their own seeds (solve::PredictorOptions::first_member), so
/// the gathered ensemble is the single process's, member for member.

#include <cstdint>

#include "cli/mpi_job.h"
#include "config/run_config.h"
#include "solve/predictor.h"

namespace bhpm::cli {

/// Members first, .., first + count - 1 of an ensemble.
struct MemberShare {
  std::int64_t first = 0;
  std::int64_t count = 0;
};

/// Rank `rank`'s share of `samples` members over `ranks`: contiguous, in rank order, sizes
/// differing by at most one. Throws std::invalid_argument when there are fewer members than
/// ranks (a rank would have nothing to solve).
MemberShare member_share(std::int64_t samples, int rank, int ranks);

/// The rank whose share holds `member` (member_share's inverse).
int rank_of_member(std::int64_t member, std::int64_t samples, int ranks);

/// Under `mpirun -n P`: this rank's share of the members, said once by rank 0; alone: every
/// member. The distilled operator is solved by one process (throws std::invalid_argument
/// under mpirun).
void share_members(const MpiJob& job, const config::RunConfig& config,
                   solve::PredictorOptions& predictor);

/// Every rank's share of the prediction, in member order, on rank 0: u, the per-member
/// flags, growth, added diffusion, failures and Algorithm 1's records concatenated; the
/// time steps are the most any rank took (the shares step alike; a share's rounds are
/// those of its slowest member, as the whole's are). The other ranks get their own share
/// back. Throws std::runtime_error when a share does not fit rank 0's grid.
solve::Prediction gather_prediction(const MpiJob& job, solve::Prediction share);

}  // namespace bhpm::cli
