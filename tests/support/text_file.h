#pragma once
// Small text files in the test's scratch folder, for readers of user files.

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace bhpm::testing_support {

/// Writes `text` to `name` in the test's temporary folder; returns its path.
inline std::string write_text_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace bhpm::testing_support
