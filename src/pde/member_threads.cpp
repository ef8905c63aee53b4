#include "pde/member_threads.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <exception>
#include <mutex>

namespace bhpm::pde {

void for_each_member(std::int64_t count, const std::function<void(std::int64_t)>& work) {
  const std::int64_t threads = std::min<std::int64_t>(at::get_num_threads(), count);
  if (threads <= 1 || at::in_parallel_region()) {
    for (std::int64_t b = 0; b < count; ++b) work(b);
    return;
  }
  std::exception_ptr first_error;
  std::mutex error_mutex;
#pragma omp parallel for schedule(dynamic, 1) num_threads(static_cast <int>(threads))
  for (std::int64_t b = 0; b < count; ++b) {
    try {
      work(b);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace bhpm::pde
