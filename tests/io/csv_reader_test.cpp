// CsvReader: header, comments and blank lines, quoted and padded fields, line numbers, and
// errors that name the file, the line and the column.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "io/csv_reader.h"
#include "support/error_message.h"
#include "support/text_file.h"

using testing::HasSubstr;

namespace {}  // namespace

TEST(CsvReader, reads_fields_by_column_with_their_line_numbers) {
  const std::string path = bhpm::testing_support::write_text_file(
      "table.csv",
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
  const std::string path = bhpm::testing_support::write_text_file(
      "bad.csv", "experiment,x,t,u\nA,0,0,1\nA,0,abc,1\nA,1,2\n");
  bhpm::io::CsvReader reader(path);
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::invalid_argument>([&] { reader.column("sigma"); }),
      HasSubstr("bad.csv: line 1: no column 'sigma' (the header has: experiment, x, t, u)"));
  ASSERT_TRUE(reader.next());
  ASSERT_TRUE(reader.next());
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::invalid_argument>([&] { reader.number(2); }),
      HasSubstr("bad.csv: line 3, column 't': 'abc' is not a number"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] { reader.next(); }),
              HasSubstr("bad.csv: line 4: 3 fields, the header has 4"));
  EXPECT_THAT(
      bhpm::testing_support::error_message<std::invalid_argument>([&] {
        bhpm::io::CsvReader(bhpm::testing_support::write_text_file("empty.csv", "# nothing\n\n"));
      }),
      HasSubstr("empty.csv: empty file"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>([&] {
                bhpm::io::CsvReader(bhpm::testing_support::write_text_file("twice.csv", "x,t,x\n"));
              }),
              HasSubstr("twice.csv: line 1: the header names column 'x' twice"));
  EXPECT_THAT(bhpm::testing_support::error_message<std::invalid_argument>(
                  [&] { bhpm::io::CsvReader(testing::TempDir() + "missing.csv"); }),
              HasSubstr("missing.csv: cannot open"));
}

TEST(CsvReader, takes_a_spreadsheets_byte_order_mark_and_names_what_it_refuses) {
  const std::string marked = bhpm::testing_support::write_text_file(
      "marked.csv", "\xEF\xBB\xBF# exported\r\nexperiment,x\r\nA,1\r\n");
  bhpm::io::CsvReader reader(marked);
  EXPECT_EQ(reader.header(), (std::vector<std::string>{"experiment", "x"}));
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.number(reader.column("x")), 1.0);
  const auto message = [](const std::string& name, const std::string& text) {
    const std::string path = bhpm::testing_support::write_text_file(name, text);
    return bhpm::testing_support::error_message<std::invalid_argument>(
        [&] { bhpm::io::CsvReader(path).next(); });
  };
  EXPECT_THAT(message("wide.csv", std::string("\xFF\xFE"
                                              "e\0x\0",
                                              6)),
              HasSubstr("wide.csv: the file is UTF-16 encoded"));
  EXPECT_THAT(message("mac.csv", "experiment,x\rA,1\r"),
              HasSubstr("mac.csv: line 1: lines end with a carriage return alone"));
}

TEST(CsvReader, quotes_a_bad_field_short_and_printable) {
  const std::string path = bhpm::testing_support::write_text_file(
      "long.csv", "experiment,x\nA,\x01" + std::string(100000, '9') + "z\n");
  bhpm::io::CsvReader reader(path);
  ASSERT_TRUE(reader.next());
  const std::string message =
      bhpm::testing_support::error_message<std::invalid_argument>([&] { reader.number(1); });
  EXPECT_THAT(message, HasSubstr("long.csv: line 2, column 'x': '\\x01999"));
  EXPECT_THAT(message, HasSubstr("... (100002 bytes)' is not a number"));
  EXPECT_LT(message.size(), 200u);
}
