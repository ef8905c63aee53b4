#pragma once
/// A streaming reader of comma-separated tables with a header line: one record per line,
/// fields separated by commas, spaces around a field ignored, a field may be enclosed in
/// double quotes (which may not hold a comma or a quote). Blank lines and lines whose
/// first character is '#' are skipped. Lines end with LF or CRLF; a UTF-8 byte-order mark
/// (spreadsheets' "CSV UTF-8") is skipped, and UTF-16 text or CR-only line ends are refused
/// by name. Errors are std::invalid_argument naming the file, the line and the column, and
/// quote at most 40 bytes of a bad field, bytes other than printable ASCII as \xNN.

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace bhpm::io {

class CsvReader {
 public:
  /// Opens `path` and reads its header; throws when the file cannot be read, has no
  /// header or repeats a column name.
  explicit CsvReader(const std::string& path);

  const std::vector<std::string>& header() const { return header_; }
  /// Whether the header names `name`.
  bool has_column(const std::string& name) const;
  /// The position of `name` in the header; throws naming the columns there are.
  std::size_t column(const std::string& name) const;

  /// Advances to the next record; false at the end of the file. Throws when the record
  /// has another number of fields than the header.
  bool next();
  /// Field `column` of the current record, unquoted and trimmed.
  std::string_view field(std::size_t column) const;
  /// Field `column` as a number (NaN and Inf are numbers here); throws naming the line
  /// and column when it is not one.
  double number(std::size_t column) const;
  /// The current record's line number in the file (1 = the header).
  std::int64_t line() const { return line_; }
  /// "FILE: line N" for messages about the current record.
  std::string where() const;

 private:
  bool read_content_line();
  void split_line();

  std::string path_;
  std::ifstream stream_;
  std::string text_;                      ///< the current line
  std::vector<std::string_view> fields_;  ///< views into text_
  std::vector<std::string> header_;
  std::int64_t line_ = 0;
};

}  // namespace bhpm::io
