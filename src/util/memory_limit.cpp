#include "util/memory_limit.h"

#include <unistd.h>

#include <cstdio>

namespace bhpm::util {

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

std::string format_bytes(double bytes) {
  char text[64];
  if (bytes >= 1e9)
    std::snprintf(text, sizeof text, "%.0f GB", bytes / 1e9);
  else
    std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
  return text;
}

std::string memory_excess(double bytes, const std::string& what) {
  const std::uint64_t memory = physical_memory_bytes();
  if (memory == 0 || bytes <= static_cast<double>(memory)) return "";
  return "needs about " + format_bytes(bytes) + " (" + what + "), more than this machine's " +
         format_bytes(static_cast<double>(memory)) + " of memory";
}

}  // namespace bhpm::util
