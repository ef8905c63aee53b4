// The default thread count (cli/process_setup.h): OMP_NUM_THREADS first, then the process's
// CPU affinity (what a batch scheduler or `taskset` allows), capped by `--threads`.

#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "cli/process_setup.h"

using bhpm::cli::available_cores;
using bhpm::cli::default_threads;
using bhpm::cli::limit_threads;

namespace {

/// Sets OMP_NUM_THREADS (or unsets it for std::nullopt) for the life of the object, and
/// restores what was there.
class OmpNumThreads {
 public:
  explicit OmpNumThreads(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("OMP_NUM_THREADS")) saved_ = old;
    if (value)
      setenv("OMP_NUM_THREADS", value->c_str(), 1);
    else
      unsetenv("OMP_NUM_THREADS");
  }
  ~OmpNumThreads() {
    if (saved_)
      setenv("OMP_NUM_THREADS", saved_->c_str(), 1);
    else
      unsetenv("OMP_NUM_THREADS");
  }

 private:
  std::optional<std::string> saved_;
};

int affinity_count() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  EXPECT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  return CPU_COUNT(&allowed);
}

}  // namespace

TEST(ProcessSetup, omp_num_threads_sets_the_cores_when_it_is_a_positive_integer) {
  {
    const OmpNumThreads omp("3");
    EXPECT_EQ(available_cores(), 3);
  }
  {
    const OmpNumThreads omp("5,2");  // OpenMP's nested list: the outer level
    EXPECT_EQ(available_cores(), 5);
  }
  for (const char* ignored : {"0", "-2", "abc", "", "4x"}) {
    const OmpNumThreads omp(std::string{ignored});
    EXPECT_EQ(available_cores(), affinity_count()) << "OMP_NUM_THREADS=\"" << ignored << "\"";
  }
}

// Restricted to one CPU (as `taskset -c` or a scheduler's allocation would), the default is
// 1 whatever the machine's core count; the mask is restored afterwards.
TEST(ProcessSetup, the_affinity_mask_bounds_the_default_and_threads_caps_it) {
  const OmpNumThreads omp(std::nullopt);
  cpu_set_t original;
  CPU_ZERO(&original);
  ASSERT_EQ(sched_getaffinity(0, sizeof(original), &original), 0);
  int first = 0;
  while (!CPU_ISSET(first, &original)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(available_cores(), 1);
  ASSERT_EQ(sched_setaffinity(0, sizeof(original), &original), 0);
  EXPECT_EQ(available_cores(), CPU_COUNT(&original));

  const OmpNumThreads four("4");
  limit_threads(2);
  EXPECT_EQ(default_threads(), 2);
  limit_threads(0);
  EXPECT_EQ(default_threads(), 4);
}
