#pragma once
/// Atomic output: write to a temporary sibling, then rename over the target.
///
/// A run that fails (exception, early return) never leaves a half-written file or folder:
/// the destructor removes the temporary unless commit() was called.

#include <string>

namespace bhpm::io {

/// The path an output named `target` is written at: the path a symbolic link points to,
/// link after link (as `cp` writes through a link, also to a file it will create), else
/// `target`. Throws std::runtime_error naming `target` for a link that cannot be read or
/// more than 40 links in a row.
std::string written_path(const std::string& target);

/// Throws std::runtime_error naming `target` unless its folder exists, a file can be made
/// in it (else the system's reason is named), and it is absent or a regular file (through
/// a link: its target): a device, pipe or folder is never replaced. Call it before long
/// work whose result goes to `target`.
void require_output_folder(const std::string& target);

/// Writes `text` to `target` through an AtomicFile: the target holds the old text or the
/// new, never part of it. Throws std::runtime_error naming `target` when it fails.
void write_text_atomically(const std::string& target, const std::string& text);

class AtomicFile {
 public:
  /// Reserves "<target>.tmp-<pid>-<counter>" beside written_path(target); throws as
  /// require_output_folder.
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

/// A folder built whole before it replaces the target (e.g. RUN_DIR/report): files are
/// written under temporary_path() ("<target>.tmp-<pid>-<counter>", created here); commit()
/// moves an existing target aside ("<target>.old-<pid>-<counter>"), renames the temporary
/// folder onto the target and then removes the old one. Readers see the old folder or the
/// new one, never a mix; between the two renames the target is briefly absent.
class AtomicFolder {
 public:
  /// Creates the temporary folder; the target's parent folder must exist.
  explicit AtomicFolder(std::string target);
  /// Removes the temporary folder and everything in it unless commit() was called.
  ~AtomicFolder();
  AtomicFolder(const AtomicFolder&) = delete;
  AtomicFolder& operator=(const AtomicFolder&) = delete;

  const std::string& temporary_path() const { return temporary_; }
  const std::string& target_path() const { return target_; }

  /// Replaces the target by the temporary folder; on failure the old target is restored.
  void commit();

 private:
  std::string target_;
  std::string temporary_;
  bool committed_ = false;
};

}  // namespace bhpm::io
