#include "cli/mpi_job.h"

#ifdef BHPM_WITH_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace bhpm::cli {

namespace {

/// The integer in environment variable `name`, 0 when unset or not a number.
long integer_variable(const char* name) {
  const char* text = std::getenv(name);
  return text ? std::strtol(text, nullptr, 10) : 0;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

bool started_as_one_of_several_ranks() {
  return integer_variable("OMPI_COMM_WORLD_SIZE") > 1 || integer_variable("PMI_SIZE") > 1;
}

bool is_launcher_variable(const std::string& name) {
  return starts_with(name, "OMPI_") || starts_with(name, "PMIX_") || starts_with(name, "PMI_") ||
         starts_with(name, "OPAL_");
}

MpiJob::MpiJob(const std::string& command) : command_(command) {
  if (!started_as_one_of_several_ranks()) return;
#ifdef BHPM_WITH_MPI
  MPI_Init(nullptr, nullptr);
  joined_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  throw std::runtime_error(
      command +
      ": started by an MPI launcher as one of several processes, but this bhpm was "
      "built without MPI (CMake option BHPM_WITH_MPI=OFF): each process would do "
      "all of the work; rebuild with MPI or start one process");
#endif
}

MpiJob::~MpiJob() {
#ifdef BHPM_WITH_MPI
  if (joined_) MPI_Finalize();
#endif
}

std::vector<int> MpiJob::max_on_first_rank(const std::vector<int>& values) const {
  std::vector<int> result = values;
#ifdef BHPM_WITH_MPI
  if (joined_)
    MPI_Reduce(values.data(), rank_ == 0 ? result.data() : nullptr, static_cast<int>(values.size()),
               MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
#endif
  return result;
}

std::vector<std::string> MpiJob::gather_on_first_rank(const std::string& bytes) const {
  if (!joined_) return {bytes};
#ifdef BHPM_WITH_MPI
  // Point to point in chunks of at most 1 GiB: a count of MPI is an int, and an ensemble's
  // share can exceed 2^31 - 1 bytes.
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  if (rank_ != 0) {
    const auto length = static_cast<std::int64_t>(bytes.size());
    MPI_Send(&length, 1, MPI_INT64_T, 0, 0, MPI_COMM_WORLD);
    for (std::size_t at = 0; at < bytes.size(); at += kChunk)
      MPI_Send(bytes.data() + at, static_cast<int>(std::min(kChunk, bytes.size() - at)), MPI_CHAR,
               0, 0, MPI_COMM_WORLD);
    return {bytes};
  }
  std::vector<std::string> parts{bytes};
  for (int source = 1; source < size_; ++source) {
    std::int64_t length = 0;
    MPI_Recv(&length, 1, MPI_INT64_T, source, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::string part(static_cast<std::size_t>(length), '\0');
    for (std::size_t at = 0; at < part.size(); at += kChunk)
      MPI_Recv(part.data() + at, static_cast<int>(std::min(kChunk, part.size() - at)), MPI_CHAR,
               source, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    parts.push_back(std::move(part));
  }
  return parts;
#else
  return {bytes};
#endif
}

void MpiJob::abort_if_several(const std::string& message) const {
  if (!several()) return;
  std::fprintf(stderr, "error: %s on rank %d of %d: %s\n", command_.c_str(), rank_, size_,
               message.c_str());
  std::fflush(stderr);
#ifdef BHPM_WITH_MPI
  MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  std::_Exit(1);
}

}  // namespace bhpm::cli
