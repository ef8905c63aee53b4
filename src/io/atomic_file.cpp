#include "io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace bhpm::io {

namespace {

std::atomic<int> temporary_counter{0};
constexpr int kMaxLinks = 40;  ///< as the kernel's limit on links followed in one path

/// "<target>.<tag>-<pid>-<counter>": unique per process and call.
std::string sibling_name(const std::string& target, const std::string& tag) {
  return target + "." + tag + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(temporary_counter++);
}

void rename_or_throw(const std::string& from, const std::string& to, const std::string& target) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw std::runtime_error("output '" + target + "': cannot rename '" + from + "' to '" + to +
                             "': " + std::strerror(errno));
}

/// Throws naming `target` unless the folder that will hold `path` exists.
void require_parent_folder(const std::string& target, const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent))
    throw std::runtime_error("output '" + target + "': folder '" + parent.string() +
                             "' does not exist");
}

/// Throws naming `target`, the folder and the system's reason unless a file can be created
/// beside `path` (permissions, a read-only file system, a full one): found before the
/// work, not when its result is written. Creates and removes one empty sibling.
void require_writable_folder(const std::string& target, const std::string& path) {
  const std::string probe = sibling_name(path, "probe");
  const int descriptor = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (descriptor < 0) {
    const std::string parent = std::filesystem::path(path).parent_path().string();
    throw std::runtime_error("output '" + target + "': cannot write in folder '" +
                             (parent.empty() ? "." : parent) + "': " + std::strerror(errno));
  }
  ::close(descriptor);
  std::remove(probe.c_str());
}

}  // namespace

std::string written_path(const std::string& target) {
  std::filesystem::path path = target;
  std::error_code error;
  for (int links = 0; std::filesystem::is_symlink(std::filesystem::symlink_status(path, error));
       ++links) {
    if (links == kMaxLinks)
      throw std::runtime_error("output '" + target + "': more than " + std::to_string(kMaxLinks) +
                               " symbolic links in a row (a loop?)");
    const std::filesystem::path next = std::filesystem::read_symlink(path, error);
    if (error)
      throw std::runtime_error("output '" + target + "': cannot read the symbolic link '" +
                               path.string() + "' (" + error.message() + ")");
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path == target ? target : path.lexically_normal().string();
}

void require_output_folder(const std::string& target) {
  const std::string path = written_path(target);
  require_parent_folder(target, path);
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw std::runtime_error("output '" + target + "'" +
                             (path == target ? "" : " (a link to '" + path + "')") +
                             ": exists and is not a regular file (a folder, device or pipe); "
                             "only a regular file is replaced");
  require_writable_folder(target, path);
}

void write_text_atomically(const std::string& target, const std::string& text) {
  AtomicFile output(target);
  {
    std::ofstream file(output.temporary_path());
    file << text;
    file.close();
    if (!file) throw std::runtime_error("output '" + target + "': could not be written");
  }
  output.commit();
}

AtomicFile::AtomicFile(std::string target) : target_(written_path(target)) {
  require_output_folder(target_);
  temporary_ = sibling_name(target_, "tmp");
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temporary_.c_str());
}

void AtomicFile::commit() {
  rename_or_throw(temporary_, target_, target_);
  committed_ = true;
}

AtomicFolder::AtomicFolder(std::string target) : target_(std::move(target)) {
  while (target_.size() > 1 && target_.back() == '/') target_.pop_back();
  require_parent_folder(target_, target_);
  temporary_ = sibling_name(target_, "tmp");
  std::error_code error;
  if (!std::filesystem::create_directory(temporary_, error))
    throw std::runtime_error("output '" + target_ + "': cannot create folder '" + temporary_ + "'" +
                             (error ? ": " + error.message() : ": it exists"));
}

AtomicFolder::~AtomicFolder() {
  std::error_code ignored;
  if (!committed_) std::filesystem::remove_all(temporary_, ignored);
}

void AtomicFolder::commit() {
  std::string old;
  if (std::filesystem::exists(target_)) {
    old = sibling_name(target_, "old");
    rename_or_throw(target_, old, target_);
  }
  try {
    rename_or_throw(temporary_, target_, target_);
  } catch (...) {
    if (!old.empty()) std::rename(old.c_str(), target_.c_str());
    throw;
  }
  committed_ = true;
  std::error_code ignored;
  if (!old.empty()) std::filesystem::remove_all(old, ignored);
}

}  // namespace bhpm::io
