#pragma once
// Small text files in the test's scratch folder, for readers of user files, and reading
// a written file back.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace bhpm::testing_support {

/// Writes `text` to `name` in the test's temporary folder; returns its path.
inline std::string write_text_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

/// The whole text of the file at `path` ("" when it cannot be read).
inline std::string read_text_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace bhpm::testing_support
