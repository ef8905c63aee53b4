#include "io/zip_archive.h"

#include <zlib.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace bhpm::io {

namespace {

constexpr std::uint32_t kEndOfDirectory = 0x06054b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr std::uint32_t kDirectoryEntry = 0x02014b50;
constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint32_t kMissing32 = 0xffffffff;

/// Little-endian reads with bounds checks against the archive.
class ByteReader {
 public:
  ByteReader(const std::vector<unsigned char>& bytes, const std::string& path,
             const std::string& kind)
      : bytes_(bytes), path_(path), kind_(kind) {}
  std::uint64_t read(std::uint64_t at, int width) const {
    if (at + static_cast<std::uint64_t>(width) > bytes_.size()) fail("truncated archive");
    std::uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i) value = (value << 8) | bytes_[at + i];
    return value;
  }
  [[noreturn]] void fail(const std::string& rule) const {
    throw std::invalid_argument(path_ + ": not a readable " + kind_ + " (" + rule + ")");
  }

 private:
  const std::vector<unsigned char>& bytes_;
  const std::string& path_;
  const std::string& kind_;
};

/// The `size` bytes that `compressed` bytes at `in` of member `name` inflate to (ZIP method
/// 8, raw deflate); fails naming the member for another method or a stream that is not.
std::vector<unsigned char> inflated(const ByteReader& reader, const std::string& name,
                                    std::uint16_t method, const unsigned char* in,
                                    std::uint64_t compressed, std::uint64_t size) {
  if (method != 8) reader.fail(name + " uses ZIP method " + std::to_string(method));
  std::vector<unsigned char> out(size);
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) reader.fail("zlib could not start");
  z.next_in = const_cast<unsigned char*>(in);
  z.avail_in = static_cast<uInt>(compressed);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (status != Z_STREAM_END || z.total_out != size)
    reader.fail("member " + name + " does not inflate to its size");
  return out;
}

std::uint64_t find_end_of_directory(const ByteReader& reader, std::uint64_t size) {
  if (size < 22) reader.fail("too short for a ZIP file");
  const std::uint64_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
  for (std::uint64_t at = size - 22;; --at) {
    if (reader.read(at, 4) == kEndOfDirectory) return at;
    if (at == lowest) break;
  }
  reader.fail("no ZIP end-of-directory record");
}

/// The ZIP64 extra field's values for the fields whose 32-bit value is 0xffffffff.
void read_zip64_extra(const ByteReader& reader, std::uint64_t extra, std::uint64_t length,
                      std::uint64_t& size, std::uint64_t& compressed, std::uint64_t& offset) {
  for (std::uint64_t at = extra; at + 4 <= extra + length;) {
    const std::uint64_t id = reader.read(at, 2), field = reader.read(at + 2, 2);
    if (id == 1) {
      std::uint64_t next = at + 4;
      for (std::uint64_t* value : {&size, &compressed, &offset})
        if (*value == kMissing32) *value = reader.read(next, 8), next += 8;
      return;
    }
    at += 4 + field;
  }
}

}  // namespace

ZipArchive::ZipArchive(const std::string& path, std::string kind)
    : path_(path), kind_(std::move(kind)) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw std::invalid_argument(path + ": cannot open the file for reading");
  bytes_.assign(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
  const ByteReader reader(bytes_, path_, kind_);
  const std::uint64_t end = find_end_of_directory(reader, bytes_.size());
  std::uint64_t entries = reader.read(end + 10, 2), directory = reader.read(end + 16, 4);
  if ((entries == 0xffff || directory == kMissing32) && end >= 20 &&
      reader.read(end - 20, 4) == kZip64Locator) {
    const std::uint64_t record = reader.read(end - 20 + 8, 8);
    if (reader.read(record, 4) != kZip64EndOfDirectory) reader.fail("bad ZIP64 directory");
    entries = reader.read(record + 32, 8);
    directory = reader.read(record + 48, 8);
  }
  for (std::uint64_t at = directory, i = 0; i < entries; ++i) {
    if (reader.read(at, 4) != kDirectoryEntry) reader.fail("bad directory entry");
    Member member;
    member.method = static_cast<std::uint16_t>(reader.read(at + 10, 2));
    member.crc32 = static_cast<std::uint32_t>(reader.read(at + 16, 4));
    member.compressed = reader.read(at + 20, 4);
    member.size = reader.read(at + 24, 4);
    member.offset = reader.read(at + 42, 4);
    const std::uint64_t name_length = reader.read(at + 28, 2), extra = reader.read(at + 30, 2),
                        comment = reader.read(at + 32, 2);
    if (at + 46 + name_length > bytes_.size()) reader.fail("truncated directory");
    std::string name(bytes_.begin() + at + 46, bytes_.begin() + at + 46 + name_length);
    read_zip64_extra(reader, at + 46 + name_length, extra, member.size, member.compressed,
                     member.offset);
    members_[name] = member;
    at += 46 + name_length + extra + comment;
  }
}

std::vector<std::string> ZipArchive::names() const {
  std::vector<std::string> names;
  for (const auto& [name, member] : members_) names.push_back(name);
  return names;
}

std::vector<unsigned char> ZipArchive::bytes(const std::string& name) const {
  const auto found = members_.find(name);
  if (found == members_.end())
    throw std::invalid_argument(path_ + ": no member '" + name + "' in the " + kind_);
  const Member& member = found->second;
  const ByteReader reader(bytes_, path_, kind_);
  if (reader.read(member.offset, 4) != kLocalHeader) reader.fail("bad local header of " + name);
  const std::uint64_t data =
      member.offset + 30 + reader.read(member.offset + 26, 2) + reader.read(member.offset + 28, 2);
  if (data + member.compressed > bytes_.size()) reader.fail("truncated member " + name);
  std::vector<unsigned char> out =
      member.method == 0 ? std::vector<unsigned char>(bytes_.begin() + data,
                                                      bytes_.begin() + data + member.compressed)
                         : inflated(reader, name, member.method, bytes_.data() + data,
                                    member.compressed, member.size);
  if (out.size() != member.size) reader.fail("member " + name + " is not of its stored size");
  const auto checksum = static_cast<std::uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), out.data(), static_cast<uInt>(out.size())));
  if (checksum != member.crc32)
    reader.fail("member " + name + " fails its CRC-32 check (the archive is corrupted)");
  return out;
}

void ZipArchive::verify() const {
  for (const auto& [name, member] : members_) bytes(name);
}

}  // namespace bhpm::io
