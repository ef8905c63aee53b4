#pragma once
/// Sizes refused before any work: a setting whose arrays would not fit in this machine's
/// memory is an error naming the setting and the estimate, instead of an allocator's
/// message or a silent swap-bound hang long after the run began.

#include <cstdint>
#include <string>

namespace bhpm::util {

/// This machine's physical memory in bytes (sysconf); 0 when it cannot be told.
std::uint64_t physical_memory_bytes();

/// "" when `bytes` fit in the physical memory (or it cannot be told), else
/// "needs about <bytes> (<what>), more than this machine's <memory> of memory".
std::string memory_excess(double bytes, const std::string& what);

/// `bytes` in whole GB from 1e9 up, else in whole MB.
std::string format_bytes(double bytes);

}  // namespace bhpm::util
