#pragma once
/// Runs independent commands as child processes, at most `jobs` at a time: how `bhpm
/// sweep` trains its members in parallel. POSIX only (fork/exec/waitpid). The children get
/// this process's environment without an MPI launcher's variables (cli/mpi_job.h).

#include <functional>
#include <string>
#include <vector>

namespace bhpm::cli {

struct ChildCommand {
  std::vector<std::string> arguments;  ///< argv; arguments[0] is the program's path
  std::string log_path;                ///< stdout and stderr go here (truncated first)
};

/// The exit code of each command, in the order given (128 + N for a command killed by
/// signal N, 127 when it could not be started). `finished(i, code)` is called as each ends.
/// At most `jobs` (>= 1) run at once.
std::vector<int> run_children(const std::vector<ChildCommand>& commands, int jobs,
                              const std::function<void(std::size_t, int)>& finished = {});

/// The path of the running executable (/proc/self/exe), to start `bhpm` itself.
std::string own_executable();

}  // namespace bhpm::cli
