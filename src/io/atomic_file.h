#pragma once
/// Atomic output: write to a temporary sibling, then rename over the target.
///
/// A run that fails (exception, early return) never leaves a half-written file: the
/// destructor removes the temporary unless commit() was called.

#include <string>

namespace bhpm::io {

/// Throws std::runtime_error naming `target` unless its folder exists; call it before
/// long work whose result goes to `target`.
void require_output_folder(const std::string& target);

class AtomicFile {
 public:
  /// Reserves "<target>.tmp-<pid>-<counter>" in the target's folder; the folder must exist.
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Path to write to while the output is being produced.
  const std::string& temporary_path() const { return temporary_; }
  const std::string& target_path() const { return target_; }

  /// Renames the temporary file onto the target (atomic on one file system).
  void commit();

 private:
  std::string target_;
  std::string temporary_;
  bool committed_ = false;
};

}  // namespace bhpm::io
