#include "report/gnuplot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace bhpm::report {

namespace {

/// Redirections of the child: stdin from /dev/null, stdout and stderr to `log`, working
/// folder `folder`.
class SpawnActions {
 public:
  SpawnActions(const std::string& log, const std::string& folder) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addchdir_np(&actions_, folder.c_str());
  }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

/// The file's text without trailing white space.
std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  std::string result = text.str();
  result.erase(result.find_last_not_of(" \t\r\n") + 1);
  return result;
}

/// The program as the child will exec it: paths made absolute, since the child changes
/// folder before exec.
std::string resolved_program(const std::string& program) {
  if (program.find('/') == std::string::npos) return program;
  return std::filesystem::absolute(program).string();
}

/// Waits for `child`; returns its exit status, or 128 + signal when it was killed.
int wait_for(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

void run_gnuplot(const std::string& program, const std::string& script,
                 const std::string& working_folder) {
  const std::string log = (std::filesystem::path(working_folder) / (script + ".log")).string();
  const std::string executable = resolved_program(program);
  std::vector<char*> arguments = {const_cast<char*>(executable.c_str()),
                                  const_cast<char*>(script.c_str()), nullptr};
  const SpawnActions actions(log, working_folder);
  pid_t child = 0;
  const int started =
      ::posix_spawnp(&child, executable.c_str(), actions.get(), nullptr, arguments.data(), environ);
  if (started != 0) {
    std::filesystem::remove(log);
    throw std::runtime_error("gnuplot not found ('" + program + "': " + std::strerror(started) +
                             "): install gnuplot-nox (scripts/install-deps.sh)");
  }
  const int status = wait_for(child);
  const std::string output = read_text(log);
  std::filesystem::remove(log);
  if (status != 0)
    throw std::runtime_error("gnuplot failed on " + script + " (exit " + std::to_string(status) +
                             "): " + output);
}

std::string gnuplot_string(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    quoted += c;
    if (c == '\'') quoted += '\'';
  }
  return quoted + "'";
}

std::string gnuplot_wrapped_string(const std::string& text, std::size_t width) {
  std::string quoted = "\"";
  std::size_t line = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::size_t length = end - start;
    if (line > 0 && line + 1 + length > width) {
      quoted += "\\n";
      line = 0;
    } else if (line > 0) {
      quoted += ' ';
      ++line;
    }
    for (std::size_t i = start; i < end; ++i) {
      if (text[i] == '"' || text[i] == '\\') quoted += '\\';
      quoted += text[i];
    }
    line += length;
    start = end + 1;
  }
  return quoted + "\"";
}

}  // namespace bhpm::report
