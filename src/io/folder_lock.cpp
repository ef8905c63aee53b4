#include "io/folder_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

namespace bhpm::io {

namespace {

namespace fs = std::filesystem;

constexpr const char* kLockName = ".bhpm-lock";

/// The locks this process holds: canonical folder -> {file descriptor, holders}.
struct HeldLock {
  int descriptor = -1;
  int holders = 0;
  bool exclusive = false;
};
std::map<std::string, HeldLock>& held_locks() {
  static std::map<std::string, HeldLock> locks;
  return locks;
}
std::mutex& held_locks_mutex() {
  static std::mutex mutex;
  return mutex;
}

/// What the exclusive holder wrote into the lock file ("pid 123: bhpm run ..."), or ""
/// when the process it names is gone (the lock is then held shared by readers, who write
/// nothing).
std::string holder(int descriptor) {
  char text[512] = {};
  const ssize_t read = ::pread(descriptor, text, sizeof(text) - 1, 0);
  std::string line(text, read > 0 ? static_cast<std::size_t>(read) : 0);
  if (const std::size_t end = line.find('\n'); end != std::string::npos) line.resize(end);
  const long pid = line.rfind("pid ", 0) == 0 ? std::strtol(line.c_str() + 4, nullptr, 10) : 0;
  const bool alive =  // EPERM: it lives, as another user's process
      pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
  return alive ? line : std::string();
}

/// Opens FOLDER/.bhpm-lock (created 0644 if absent; a link or anything but a regular file
/// refused) without passing it to child processes. A reader in a folder it may not write
/// (a run shared read-only) opens the file read-only, or gets -1 when there is none: no
/// one who can write there left one, and the reader goes on unlocked.
int open_lock_file(const std::string& folder, const std::string& path, bool reader) {
  int descriptor = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (descriptor < 0 && reader && (errno == EACCES || errno == EROFS || errno == EPERM)) {
    descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0 && errno == ENOENT) return -1;
  }
  if (descriptor < 0)
    throw std::runtime_error(folder + ": cannot open its lock file " + path + ": " +
                             std::strerror(errno));
  struct stat status {};
  if (::fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(descriptor);
    throw std::runtime_error(folder + ": its lock file " + path + " is not a regular file");
  }
  return descriptor;
}

/// Writes "pid N: COMMAND\n" over the lock file's text (for a refused process to read).
void record_holder(int descriptor, const std::string& command) {
  const std::string line = "pid " + std::to_string(::getpid()) + ": " + command + "\n";
  if (::ftruncate(descriptor, 0) == 0) {
    const ssize_t written = ::pwrite(descriptor, line.data(), line.size(), 0);
    (void)written;  // the text only helps a refused process say who holds the lock
  }
}

}  // namespace

FolderLock::FolderLock(const std::string& folder, Mode mode, const std::string& command) {
  std::error_code error_code;
  if (!fs::is_directory(folder, error_code)) return;  // nothing in it to protect
  key_ = fs::canonical(folder).string();
  const std::lock_guard<std::mutex> guard(held_locks_mutex());
  HeldLock& held = held_locks()[key_];
  if (held.holders > 0) {
    ++held.holders;
    return;
  }
  const std::string path = (fs::path(folder) / kLockName).string();
  const int descriptor = open_lock_file(folder, path, mode == Mode::shared);
  if (descriptor < 0) {
    held_locks().erase(key_);
    key_.clear();
    return;
  }
  if (::flock(descriptor, (mode == Mode::exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    const int error = errno;
    const std::string by = holder(descriptor);
    ::close(descriptor);
    held_locks().erase(key_);
    if (error != EWOULDBLOCK)
      throw std::runtime_error(folder + ": cannot lock " + path + ": " + std::strerror(error));
    throw std::runtime_error(folder + " is in use by another bhpm process" +
                             (by.empty() ? std::string() : " (" + by + ")") +
                             "; wait for it to finish or use another folder");
  }
  if (mode == Mode::exclusive) record_holder(descriptor, command);
  held = {descriptor, 1, mode == Mode::exclusive};
}

FolderLock::~FolderLock() {
  if (key_.empty()) return;
  const std::lock_guard<std::mutex> guard(held_locks_mutex());
  const auto found = held_locks().find(key_);
  if (found == held_locks().end() || --found->second.holders > 0) return;
  if (found->second.exclusive && ::ftruncate(found->second.descriptor, 0) != 0) {
    // the holder's line stays; a refused process shows it only while that pid lives
  }
  ::close(found->second.descriptor);  // releases the flock
  held_locks().erase(found);
}

}  // namespace bhpm::io
