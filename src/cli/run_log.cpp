#include "cli/run_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace bhpm::cli {

namespace {

/// Writes all of `size` bytes to `fd`, retrying short writes; false on an error.
bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool same_file(int fd, const std::string& path) {
  struct stat open_file {
  }, named{};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
         open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

std::string local_time() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  return text;
}

/// One redirected stream: the pipe that replaced it, the original descriptor and the
/// thread that copies the pipe to both.
struct Stream {
  int target = -1;    ///< STDOUT_FILENO or STDERR_FILENO
  int original = -1;  ///< a duplicate of the stream before redirection
  int pipe_read = -1;
  std::thread copier;
};

}  // namespace

struct RunLog::Streams {
  int log = -1;
  std::mutex log_mutex;
  Stream out, err;

  void copy(Stream& stream) {
    char buffer[4096];
    for (;;) {
      const ssize_t count = ::read(stream.pipe_read, buffer, sizeof buffer);
      if (count < 0 && errno == EINTR) continue;
      if (count <= 0) break;
      write_all(stream.original, buffer, static_cast<std::size_t>(count));
      const std::lock_guard<std::mutex> lock(log_mutex);
      write_all(log, buffer, static_cast<std::size_t>(count));
    }
  }

  void redirect(Stream& stream, int target) {
    int ends[2];
    if (::pipe(ends) != 0)
      throw std::runtime_error(std::string("run.log: cannot make a pipe: ") + std::strerror(errno));
    stream.target = target;
    stream.original = ::dup(target);
    stream.pipe_read = ends[0];
    ::dup2(ends[1], target);
    ::close(ends[1]);
    stream.copier = std::thread([this, &stream] { copy(stream); });
  }

  void restore(Stream& stream) {
    ::dup2(stream.original, stream.target);  // closes the pipe's last write end: EOF
    stream.copier.join();
    ::close(stream.pipe_read);
    ::close(stream.original);
  }
};

RunLog::RunLog(const std::string& path, const std::string& command_line) {
  if (same_file(STDOUT_FILENO, path)) return;
  auto streams = std::make_unique<Streams>();
  streams->log = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (streams->log < 0)
    throw std::runtime_error(path +
                             ": cannot open the run's log for writing: " + std::strerror(errno));
  const std::string header = "\n=== " + local_time() + ": " + command_line + "\n";
  write_all(streams->log, header.data(), header.size());
  std::fflush(stdout);
  std::fflush(stderr);
  streams->redirect(streams->out, STDOUT_FILENO);
  streams->redirect(streams->err, STDERR_FILENO);
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);  // a pipe now: keep lines prompt
  streams_ = std::move(streams);
}

RunLog::~RunLog() {
  if (!streams_) return;
  std::fflush(stdout);
  std::fflush(stderr);
  streams_->restore(streams_->out);
  streams_->restore(streams_->err);
  ::close(streams_->log);
}

void RunLog::write_to_log_only(const std::string& line) {
  if (!streams_) return;
  const std::lock_guard<std::mutex> lock(streams_->log_mutex);
  write_all(streams_->log, line.data(), line.size());
}

}  // namespace bhpm::cli
