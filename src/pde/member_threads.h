#pragma once
/// Independent ensemble members spread over LibTorch's intra-op threads.

#include <cstdint>
#include <functional>

namespace bhpm::pde {

/// Runs work(b) for every b in [0, count) on at::get_num_threads() threads (OpenMP, the
/// threads LibTorch itself uses), handing the members out one at a time: a member that needs
/// many small steps or blows up holds back only its own thread, where fixed shares (as
/// at::parallel_for makes) would leave the other threads idle. Serial inside a parallel
/// region or with one thread. The first exception thrown by any work(b) is rethrown after
/// every member has run.
void for_each_member(std::int64_t count, const std::function<void(std::int64_t)>& work);

}  // namespace bhpm::pde
