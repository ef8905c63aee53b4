#include "cli/process_setup.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>
#include <malloc.h>

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
}  // namespace

void configure_process() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  set_openblas_threads(1);
}

void use_threads(int threads) {
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores < 1) cores = 1;
  if (thread_limit > 0 && thread_limit < cores) cores = thread_limit;
  at::set_num_threads(threads > 0 ? threads : cores);
}

void limit_threads(int limit) { thread_limit = limit > 0 ? limit : 0; }

}  // namespace bhpm::cli
