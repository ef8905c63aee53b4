#pragma once
/// Reading NumPy's .npz archives: a ZIP file (stored or deflated members, ZIP64 sizes as
/// np.savez writes them) of .npy arrays, each member checked against its CRC-32. Only what
/// measurements need: one-dimensional, C-order arrays of little-endian floats, integers or
/// fixed-width Unicode strings.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

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
  bool has(const std::string& name) const { return members_.count(name) > 0; }
  /// Array `name`; throws naming the file and array when it is missing, not
  /// one-dimensional, Fortran-ordered, big-endian or of another type.
  NpyArray array(const std::string& name) const;

 private:
  struct Member {
    std::uint64_t offset = 0;  ///< of the local header
    std::uint64_t compressed = 0, size = 0;
    std::uint16_t method = 0;  ///< 0 stored, 8 deflated
    std::uint32_t crc32 = 0;   ///< of the uncompressed bytes, checked on every read
  };
  std::vector<unsigned char> member_bytes(const std::string& name, const Member& member) const;

  std::string path_;
  std::vector<unsigned char> bytes_;  ///< the whole archive
  std::map<std::string, Member> members_;
};

}  // namespace bhpm::io
