#pragma once
/// RUN_DIR/run.log of `bhpm run`: everything the job prints on stdout and stderr, every
/// stage's progress included, still reaches the terminal and is appended to the log.
/// Each `bhpm run` appends a header line (time, command line), so a resumed job's log
/// keeps the earlier attempts. Where stdout already is the log (a `bhpm sweep` member,
/// whose whole output the sweep sends there), nothing is copied twice.

#include <memory>
#include <string>

namespace bhpm::cli {

class RunLog {
 public:
  /// Starts copying into `path` (created or appended to) under a header naming
  /// `command_line`; throws std::runtime_error naming the file when it cannot be opened.
  RunLog(const std::string& path, const std::string& command_line);
  /// Flushes, restores stdout and stderr, and waits until every byte reached the log.
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

  /// Writes `line` to the log only (a failure that the caller prints after the log ends).
  void write_to_log_only(const std::string& line);

 private:
  struct Streams;
  std::unique_ptr<Streams> streams_;  ///< null when stdout already is the log
};

}  // namespace bhpm::cli
