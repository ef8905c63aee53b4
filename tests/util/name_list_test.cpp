// Named alternatives: how they are listed and checked (util/name_list.h).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "support/error_message.h"
#include "util/name_list.h"

using bhpm::testing_support::error_message;
using bhpm::util::is_listed;
using bhpm::util::quoted_alternatives;
using bhpm::util::require_listed;

TEST(NameList, alternatives_are_quoted_and_joined_like_a_sentence) {
  EXPECT_EQ(quoted_alternatives({}), "");
  EXPECT_EQ(quoted_alternatives({"rbf"}), "\"rbf\"");
  EXPECT_EQ(quoted_alternatives({"spectral", "pinn"}), "\"spectral\" or \"pinn\"");
  EXPECT_EQ(quoted_alternatives({"a", "b", "c"}), "\"a\", \"b\" or \"c\"");
}

TEST(NameList, an_unlisted_name_is_refused_with_every_listed_one) {
  EXPECT_TRUE(is_listed("pinn", {"spectral", "pinn"}));
  EXPECT_FALSE(is_listed("Pinn", {"spectral", "pinn"}));
  EXPECT_NO_THROW(require_listed("pinn", {"spectral", "pinn"}, "predict", "solver"));
  EXPECT_EQ(error_message<std::invalid_argument>([] {
              require_listed("fem", {"spectral", "pinn"}, "predict", "solver");
            }),
            "predict: solver must be \"spectral\" or \"pinn\" (got \"fem\")");
}

TEST(NameList, a_name_table_lists_its_names_and_finds_by_name) {
  const bhpm::util::NameTable<int> table = {{"one", 1}, {"two", 2}};
  EXPECT_EQ(bhpm::util::names_of(table), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(bhpm::util::find_listed(table, "two", "counting", "number"), 2);
  EXPECT_EQ(error_message<std::invalid_argument>(
                [&] { bhpm::util::find_listed(table, "three", "counting", "number"); }),
            "counting: number must be \"one\" or \"two\" (got \"three\")");
}
