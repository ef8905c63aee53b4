#pragma once
/// A lock on a run folder for as long as a command works in it (docs/run-folder.md, "Run
/// folder lock"): two `bhpm run` on one folder would otherwise mix one run's data.h5 with
/// the other's checkpoints. An advisory flock(2) on FOLDER/.bhpm-lock, which holds the
/// holder's pid and command line; the system drops it when the process ends, however it
/// ends (kill -9 included), so a lock is never left stale.

#include <string>

namespace bhpm::io {

class FolderLock {
 public:
  /// Writers (train, run, calibrate, distill, report) hold it exclusively; readers
  /// (predict, evaluate) share it with each other, so predictions run side by side but
  /// never beside a training that rewrites their checkpoints.
  enum class Mode { exclusive, shared };

  /// Takes the lock on `folder` without waiting; a folder that does not exist is not locked
  /// (nothing is in it to protect; the command's own checks name it). A process that holds
  /// a lock on the folder already (a `bhpm run` calls the stages, which lock it too) takes
  /// it again at no cost. A reader in a folder it may not write shares the lock through a
  /// read-only lock file, or goes on unlocked where there is none. Throws
  /// std::runtime_error naming the folder and the holder's pid and command when another
  /// process holds it, and when the lock file cannot be made or is not a regular file.
  FolderLock(const std::string& folder, Mode mode, const std::string& command);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  std::string key_;  ///< the folder's canonical path ("": none locked)
};

}  // namespace bhpm::io
