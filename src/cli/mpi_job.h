#pragma once
/// The processes of one `mpirun -n P bhpm ...` job and the few collective operations BHPM
/// needs from MPI (docs/parallel.md). Built without MPI (CMake option BHPM_WITH_MPI off),
/// or started without a launcher, a process is a job of its own: rank 0 of 1, and the
/// collectives hand back what they are given.

#include <string>
#include <vector>

namespace bhpm::cli {

/// Whether an MPI launcher started this process as one of several: Open MPI's mpirun sets
/// OMPI_COMM_WORLD_SIZE, PMI launchers (Slurm's srun --mpi=pmi2, MPICH's) set PMI_SIZE; an
/// integer > 1 in either.
bool started_as_one_of_several_ranks();

/// Whether `name` is one of the variables through which a launcher tells a process its
/// rank (OMPI_*, PMIX_*, PMI_*, OPAL_*): child processes of a rank do not get them, so that
/// a `bhpm run` started by a rank is a process of its own, not taken for a rank.
bool is_launcher_variable(const std::string& name);

class MpiJob {
 public:
  /// Joins the job (MPI_Init) when a launcher started this process as one of several.
  /// A build without MPI refuses such a start, naming `command`: every rank would
  /// otherwise do all of the work.
  explicit MpiJob(const std::string& command);
  /// Leaves the job (MPI_Finalize); after a failure on this rank use abort() instead,
  /// since the other ranks may be waiting in a collective.
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool several() const { return size_ > 1; }

  /// The element-wise maximum of every rank's `values` (same length on every rank),
  /// returned on rank 0; the other ranks get their own values back (MPI_Reduce, MPI_MAX).
  std::vector<int> max_on_first_rank(const std::vector<int>& values) const;

  /// Every rank's `bytes`, in rank order, on rank 0 (each rank sends its length, then its
  /// bytes in chunks of at most 1 GiB: beyond 2^31 - 1 bytes too); the other ranks get
  /// only their own back.
  std::vector<std::string> gather_on_first_rank(const std::string& bytes) const;

  /// When several: prints "error: <command> on rank r of P: <message>" and ends every rank
  /// of the job (MPI_Abort, exit code 1). Alone: returns, and the caller reports as usual.
  void abort_if_several(const std::string& message) const;

 private:
  std::string command_;
  int rank_ = 0;
  int size_ = 1;
  bool joined_ = false;  ///< MPI_Init called here
};

}  // namespace bhpm::cli
