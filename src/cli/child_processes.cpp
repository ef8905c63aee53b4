#include "cli/child_processes.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "cli/mpi_job.h"

namespace bhpm::cli {

namespace {

/// This process's environment less an MPI launcher's variables (mpi_job.h): a child of
/// one rank of an `mpirun` job is a process of its own.
std::vector<std::string> child_environment() {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string variable(*entry);
    if (!is_launcher_variable(variable.substr(0, variable.find('='))))
      environment.push_back(variable);
  }
  return environment;
}

std::vector<char*> null_terminated(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const auto& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

/// Forks and execs `command` with its output in its log; returns the child's pid.
pid_t start_child(const ChildCommand& command) {
  std::vector<char*> argv = null_terminated(command.arguments);
  const std::vector<std::string> environment = child_environment();
  std::vector<char*> envp = null_terminated(environment);
  const int log = ::open(command.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0)
    throw std::runtime_error(command.log_path +
                             ": cannot open for writing: " + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    throw std::runtime_error(std::string("cannot start a child process: ") + std::strerror(errno));
  }
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(log);
  return pid;
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

std::vector<int> run_children(const std::vector<ChildCommand>& commands, int jobs,
                              const std::function<void(std::size_t, int)>& finished) {
  if (jobs < 1)
    throw std::invalid_argument("run_children: jobs must be >= 1 (got " + std::to_string(jobs) +
                                ")");
  std::vector<int> codes(commands.size(), 0);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && static_cast<int>(running.size()) < jobs) {
      running[start_child(commands[next])] = next;
      ++next;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
    }
    const auto found = running.find(pid);
    if (found == running.end()) continue;
    codes[found->second] = exit_code(status);
    if (finished) finished(found->second, codes[found->second]);
    running.erase(found);
  }
  return codes;
}

std::string own_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace bhpm::cli
