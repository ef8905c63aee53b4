#pragma once
/// Reading NumPy's .npz archives: a ZIP file (io/zip_archive.h: stored or deflated members,
/// ZIP64 sizes as np.savez writes them, each checked against its CRC-32) of .npy arrays. Only what
/// measurements need: one-dimensional, C-order arrays of little-endian floats, integers or
/// fixed-width Unicode strings.

#include <cstdint>
#include <string>
#include <vector>

#include "io/zip_archive.h"

namespace bhpm::io {

/// One array of the archive: numbers as doubles, or strings for a Unicode ('<U') array.
struct NpyArray {
  std::vector<double> numbers;
  std::vector<std::string> strings;
  bool is_text = false;
  std::size_t size() const { return is_text ? strings.size() : numbers.size(); }
};

class NpzArchive {
 public:
  /// Reads the archive's directory; throws std::invalid_argument naming the file when it
  /// is not a ZIP archive.
  explicit NpzArchive(const std::string& path);

  /// The array names ("x" for member "x.npy").
  std::vector<std::string> names() const;
  bool has(const std::string& name) const;
  /// Array `name`; throws naming the file and array when it is missing, not
  /// one-dimensional, Fortran-ordered, big-endian or of another type.
  NpyArray array(const std::string& name) const;

 private:
  std::string path_;
  ZipArchive zip_;
};

}  // namespace bhpm::io
