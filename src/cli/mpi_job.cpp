#include "cli/mpi_job.h"

#ifdef BHPM_WITH_MPI
#include <mpi.h>
#endif

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
  const int length = static_cast<int>(bytes.size());
  std::vector<int> lengths(rank_ == 0 ? size_ : 0), offsets(lengths.size(), 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (std::size_t r = 1; r < lengths.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string all(lengths.empty() ? 0 : static_cast<std::size_t>(offsets.back() + lengths.back()),
                  '\0');
  MPI_Gatherv(bytes.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  if (rank_ != 0) return {bytes};
  std::vector<std::string> parts;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    parts.push_back(
        all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
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
