// CsvReader: header, comments and blank lines, quoted and padded fields, line numbers, and
// errors that name the file, the line and the column.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "io/csv_reader.h"

using testing::HasSubstr;

namespace {

std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

template <typename Action>
std::string error_of(const Action& action) {
  try {
    action();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST(CsvReader, reads_fields_by_column_with_their_line_numbers) {
  const std::string path =
      write_text("table.csv",
                 "# sensors\nexperiment, x ,t,u\r\n\n\"run A\", 0.5, 1e-3, -2\n# gap\nB,1,2,nan\n");
  bhpm::io::CsvReader reader(path);
  EXPECT_EQ(reader.header(), (std::vector<std::string>{"experiment", "x", "t", "u"}));
  const std::size_t x = reader.column("x"), u = reader.column("u");
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.field(0), "run A");
  EXPECT_EQ(reader.number(x), 0.5);
  EXPECT_EQ(reader.number(2), 1e-3);
  EXPECT_EQ(reader.number(u), -2.0);
  EXPECT_EQ(reader.line(), 4);
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.line(), 6);
  EXPECT_TRUE(std::isnan(reader.number(u)));  // a number: the caller decides it is bad
  EXPECT_FALSE(reader.next());
}

TEST(CsvReader, errors_name_the_file_the_line_and_the_column) {
  const std::string path = write_text("bad.csv", "experiment,x,t,u\nA,0,0,1\nA,0,abc,1\nA,1,2\n");
  bhpm::io::CsvReader reader(path);
  EXPECT_THAT(
      error_of([&] { reader.column("sigma"); }),
      HasSubstr("bad.csv: line 1: no column 'sigma' (the header has: experiment, x, t, u)"));
  ASSERT_TRUE(reader.next());
  ASSERT_TRUE(reader.next());
  EXPECT_THAT(error_of([&] { reader.number(2); }),
              HasSubstr("bad.csv: line 3, column 't': 'abc' is not a number"));
  EXPECT_THAT(error_of([&] { reader.next(); }),
              HasSubstr("bad.csv: line 4: 3 fields, the header has 4"));
  EXPECT_THAT(error_of([&] { bhpm::io::CsvReader(write_text("empty.csv", "# nothing\n\n")); }),
              HasSubstr("empty.csv: empty file"));
  EXPECT_THAT(error_of([&] { bhpm::io::CsvReader(write_text("twice.csv", "x,t,x\n")); }),
              HasSubstr("twice.csv: line 1: the header names column 'x' twice"));
  EXPECT_THAT(error_of([&] { bhpm::io::CsvReader(testing::TempDir() + "missing.csv"); }),
              HasSubstr("missing.csv: cannot open"));
}
