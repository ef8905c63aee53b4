#include "io/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace bhpm::io {

namespace {
std::atomic<int> temporary_counter{0};
}

void require_output_folder(const std::string& target) {
  const std::filesystem::path parent = std::filesystem::path(target).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    throw std::runtime_error("output '" + target + "': folder '" + parent.string() +
                             "' does not exist");
}

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  require_output_folder(target_);
  temporary_ = target_ + ".tmp-" + std::to_string(::getpid()) + "-" +
               std::to_string(temporary_counter++);
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temporary_.c_str());
}

void AtomicFile::commit() {
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0)
    throw std::runtime_error("output '" + target_ + "': cannot rename from '" + temporary_ +
                             "': " + std::strerror(errno));
  committed_ = true;
}

}  // namespace bhpm::io
