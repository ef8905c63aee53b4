#include "io/csv_reader.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace bhpm::io {

namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::string_view unquoted(std::string_view field) {
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"')
    return field.substr(1, field.size() - 2);
  return field;
}

/// At most 40 bytes of `text` for a message, other bytes than printable ASCII as \xNN,
/// and the length when it was cut: a message never echoes raw or megabyte-long fields.
std::string excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (const char c : text.substr(0, kShown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      constexpr const char* kHex = "0123456789ABCDEF";
      shown += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 0xf];
    }
  }
  if (text.size() > kShown) shown += "... (" + std::to_string(text.size()) + " bytes)";
  return shown;
}

/// Refuses encodings and line ends the reader does not take, by what the first line shows;
/// strips a UTF-8 byte-order mark (spreadsheets' "CSV UTF-8").
void prepare_first_line(const std::string& path, std::string& line) {
  const auto starts = [&](std::string_view mark) { return line.rfind(mark, 0) == 0; };
  if (starts("\xFF\xFE") || starts("\xFE\xFF"))
    throw std::invalid_argument(path +
                                ": the file is UTF-16 encoded; save it as UTF-8 or ASCII text");
  if (starts("\xEF\xBB\xBF")) line.erase(0, 3);
  const std::string_view content = trimmed(line);
  if (content.find('\r') != std::string_view::npos)
    throw std::invalid_argument(path +
                                ": line 1: lines end with a carriage return alone (CR); save "
                                "the file with LF or CRLF line ends");
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

CsvReader::CsvReader(const std::string& path) : path_(path), stream_(path) {
  if (!stream_) throw std::invalid_argument(path + ": cannot open the file for reading");
  if (!read_content_line())
    throw std::invalid_argument(path + ": empty file (a header line of column names is needed)");
  split_line();
  for (const auto field : fields_) {
    const std::string name(field);
    if (name.empty())
      throw std::invalid_argument(where() + ": the header has an empty column name");
    if (has_column(name))
      throw std::invalid_argument(where() + ": the header names column '" + name + "' twice");
    header_.push_back(name);
  }
}

bool CsvReader::has_column(const std::string& name) const {
  for (const auto& column : header_)
    if (column == name) return true;
  return false;
}

std::size_t CsvReader::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return i;
  throw std::invalid_argument(path_ + ": line 1: no column '" + name +
                              "' (the header has: " + joined(header_) + ")");
}

bool CsvReader::read_content_line() {
  while (std::getline(stream_, text_)) {
    if (++line_ == 1) prepare_first_line(path_, text_);
    const std::string_view content = trimmed(text_);
    if (!content.empty() && content.front() != '#') return true;
  }
  if (stream_.bad())
    throw std::invalid_argument(path_ + ": read error after line " + std::to_string(line_));
  return false;
}

void CsvReader::split_line() {
  fields_.clear();
  std::string_view rest(text_);
  while (true) {
    const auto comma = rest.find(',');
    fields_.push_back(unquoted(trimmed(rest.substr(0, comma))));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

bool CsvReader::next() {
  if (!read_content_line()) return false;
  split_line();
  if (fields_.size() != header_.size())
    throw std::invalid_argument(where() + ": " + std::to_string(fields_.size()) +
                                " fields, the header has " + std::to_string(header_.size()));
  return true;
}

std::string_view CsvReader::field(std::size_t column) const { return fields_.at(column); }

double CsvReader::number(std::size_t column) const {
  const std::string_view text = field(column);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw std::invalid_argument(where() + ", column '" + header_[column] + "': '" + excerpt(text) +
                                "' is not a number");
  return value;
}

std::string CsvReader::where() const { return path_ + ": line " + std::to_string(line_); }

}  // namespace bhpm::io
