#include "io/npz_archive.h"

#include <cstring>
#include <regex>
#include <stdexcept>

namespace bhpm::io {

namespace {

/// The .npy header's value for `key` in its Python dict literal.
std::string header_value(const std::string& header, const std::string& key) {
  const std::regex pattern("'" + key + "'\\s*:\\s*('[^']*'|True|False|\\([^)]*\\))");
  std::smatch match;
  return std::regex_search(header, match, pattern) ? match[1].str() : std::string();
}

std::string utf32_to_utf8(const unsigned char* data, std::size_t characters) {
  std::string text;
  for (std::size_t i = 0; i < characters; ++i) {
    std::uint32_t c = 0;
    std::memcpy(&c, data + 4 * i, 4);
    if (c == 0) break;
    if (c < 0x80) {
      text += static_cast<char>(c);
    } else if (c < 0x800) {
      text += static_cast<char>(0xc0 | (c >> 6));
      text += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      text += static_cast<char>(0xe0 | (c >> 12));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      text += static_cast<char>(0x80 | (c & 0x3f));
    } else {
      text += static_cast<char>(0xf0 | (c >> 18));
      text += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
      text += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      text += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return text;
}

template <typename T>
void append_numbers(const unsigned char* data, std::size_t count, std::vector<double>& out) {
  for (std::size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, data + i * sizeof(T), sizeof(T));
    out.push_back(static_cast<double>(value));
  }
}

}  // namespace

NpzArchive::NpzArchive(const std::string& path) : path_(path), zip_(path, ".npz archive") {}

std::vector<std::string> NpzArchive::names() const {
  std::vector<std::string> names;
  for (const std::string& member : zip_.names())
    if (member.size() > 4 && member.compare(member.size() - 4, 4, ".npy") == 0)
      names.push_back(member.substr(0, member.size() - 4));
  return names;
}

bool NpzArchive::has(const std::string& name) const { return zip_.has(name + ".npy"); }

NpyArray NpzArchive::array(const std::string& name) const {
  if (!has(name)) throw std::invalid_argument(path_ + ": no array '" + name + "' in the archive");
  const std::vector<unsigned char> bytes = zip_.bytes(name + ".npy");
  const std::string where = path_ + ": array '" + name + "'";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    throw std::invalid_argument(where + " is not an .npy array");
  const bool wide = bytes[6] >= 2;
  const std::size_t length = wide ? bytes[8] | bytes[9] << 8 | bytes[10] << 16 | bytes[11] << 24
                                  : bytes[8] | bytes[9] << 8;
  const std::size_t start = (wide ? 12 : 10) + length;
  if (start > bytes.size()) throw std::invalid_argument(where + ": truncated header");
  const std::string header(bytes.begin() + (wide ? 12 : 10), bytes.begin() + start);
  const std::string descr = header_value(header, "descr"), shape = header_value(header, "shape");
  if (header_value(header, "fortran_order") != "False")
    throw std::invalid_argument(where + " is Fortran-ordered (save a C-ordered array)");
  const std::regex one_dimensional(R"(\(\s*(\d+)\s*,?\s*\))");
  std::smatch match;
  if (!std::regex_match(shape, match, one_dimensional))
    throw std::invalid_argument(where + " has shape " + shape + " (one dimension is needed)");
  const std::size_t count = std::stoull(match[1].str());
  const std::regex type(R"('([<|=])([fiuU])(\d+)')");
  if (!std::regex_match(descr, match, type))
    throw std::invalid_argument(where + " has dtype " + descr +
                                " (little-endian floats, integers or Unicode strings are read)");
  const char kind = match[2].str()[0];
  const std::size_t width = std::stoull(match[3].str());
  const std::size_t item = kind == 'U' ? 4 * width : width;
  if (start + count * item > bytes.size()) throw std::invalid_argument(where + ": truncated data");
  const unsigned char* data = bytes.data() + start;
  NpyArray array;
  if (kind == 'U') {
    array.is_text = true;
    for (std::size_t i = 0; i < count; ++i)
      array.strings.push_back(utf32_to_utf8(data + i * item, width));
  } else if (kind == 'f' && width == 8) {
    append_numbers<double>(data, count, array.numbers);
  } else if (kind == 'f' && width == 4) {
    append_numbers<float>(data, count, array.numbers);
  } else if (kind == 'i' && width == 8) {
    append_numbers<std::int64_t>(data, count, array.numbers);
  } else if (kind == 'i' && width == 4) {
    append_numbers<std::int32_t>(data, count, array.numbers);
  } else if (kind == 'u' && width == 8) {
    append_numbers<std::uint64_t>(data, count, array.numbers);
  } else if (kind == 'u' && width == 4) {
    append_numbers<std::uint32_t>(data, count, array.numbers);
  } else {
    throw std::invalid_argument(where + " has dtype " + descr +
                                " (float32/64, int32/64, uint32/64 or Unicode are read)");
  }
  return array;
}

}  // namespace bhpm::io
