#pragma once
/// Reading ZIP archives whole into memory: the directory (ZIP64 sizes and offsets as
/// NumPy's np.savez writes them), stored or deflated members, each checked against its
/// CRC-32 when read. NumPy's .npz archives (io/npz_archive.h) and LibTorch's checkpoints
/// (io/checkpoint.h; LibTorch's own reader checks no CRC) are ZIP archives.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bhpm::io {

class ZipArchive {
 public:
  /// Reads the file at `path` and its directory; `kind` names what it should be in errors
  /// ("<path>: not a readable <kind> (<rule>)"). Throws std::invalid_argument when it
  /// cannot be read or is not a ZIP archive.
  ZipArchive(const std::string& path, std::string kind);

  /// The member names as stored ("x.npy", "archive/data/0", ...), sorted.
  std::vector<std::string> names() const;
  bool has(const std::string& name) const { return members_.count(name) > 0; }
  /// Member `name`'s uncompressed bytes; throws naming the file and member when it is
  /// missing, truncated, of another size or fails its CRC-32 check.
  std::vector<unsigned char> bytes(const std::string& name) const;
  /// Reads every member (bytes): throws at the first that is damaged.
  void verify() const;
  /// The whole archive as read from the file.
  const std::vector<unsigned char>& contents() const { return bytes_; }

 private:
  struct Member {
    std::uint64_t offset = 0;  ///< of the local header
    std::uint64_t compressed = 0, size = 0;
    std::uint16_t method = 0;  ///< 0 stored, 8 deflated
    std::uint32_t crc32 = 0;   ///< of the uncompressed bytes, checked on every read
  };

  std::string path_;
  std::string kind_;
  std::vector<unsigned char> bytes_;  ///< the whole archive
  std::map<std::string, Member> members_;
};

}  // namespace bhpm::io
