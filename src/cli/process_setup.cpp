#include "cli/process_setup.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>
#include <malloc.h>
#include <sched.h>

#include <cstdlib>
#include <thread>

namespace bhpm::cli {

namespace {
/// openblas_set_num_threads, looked up at run time so that no binary links OpenBLAS
/// directly (LibTorch reaches it through libblas.so.3).
void set_openblas_threads(int threads) {
  using Setter = void (*)(int);
  if (auto setter = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    setter(threads);
}

int thread_limit = 0;  ///< limit_threads(): 0 = no cap

/// Whether the CPU runs ATen's AVX-512 kernels (the instruction sets they are compiled
/// for: foundation, byte/word, doubleword/quadword and vector-length extensions).
bool runs_avx512_kernels() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

/// ATen's vectorised kernels (sines, exponentials, elementwise arithmetic) in their AVX-512
/// build where the CPU has it: ATen reads ATEN_CPU_CAPABILITY once, at its first dispatched
/// operation, and otherwise stops at AVX2. A value the user set is kept.
void prefer_avx512_kernels() {
  if (runs_avx512_kernels()) setenv("ATEN_CPU_CAPABILITY", "avx512", /*overwrite=*/0);
}
}  // namespace

void configure_process() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  set_openblas_threads(1);
  prefer_avx512_kernels();
}

int available_cores() {
  if (const char* requested = std::getenv("OMP_NUM_THREADS")) {
    char* end = nullptr;
    const long threads = std::strtol(requested, &end, 10);
    if (end != requested && threads > 0 && threads <= kMaxThreads && (*end == '\0' || *end == ','))
      return static_cast<int>(threads);
  }
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0 && CPU_COUNT(&allowed) > 0)
    return CPU_COUNT(&allowed);
  const auto cores = static_cast<int>(std::thread::hardware_concurrency());
  return cores > 0 ? cores : 1;
}

int default_threads() {
  const int cores = available_cores();
  return thread_limit > 0 && thread_limit < cores ? thread_limit : cores;
}

void use_threads(int threads) { at::set_num_threads(threads > 0 ? threads : default_threads()); }

void limit_threads(int limit) { thread_limit = limit > 0 ? limit : 0; }

}  // namespace bhpm::cli
