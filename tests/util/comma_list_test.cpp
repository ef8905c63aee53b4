// Comma-separated lists (util/comma_list.h): split and joined back.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/comma_list.h"

using bhpm::util::join_with_commas;
using bhpm::util::split_at_commas;
using Parts = std::vector<std::string>;

TEST(CommaList, splits_between_commas_keeping_empty_inner_parts) {
  EXPECT_EQ(split_at_commas("u,u_x,u_xx"), (Parts{"u", "u_x", "u_xx"}));
  EXPECT_EQ(split_at_commas("a,,b"), (Parts{"a", "", "b"}));
  EXPECT_EQ(split_at_commas("a,"), (Parts{"a"}));
  EXPECT_EQ(split_at_commas(""), Parts{});
  EXPECT_EQ(split_at_commas("one"), (Parts{"one"}));
}

TEST(CommaList, joining_is_the_inverse_of_splitting) {
  const Parts parts = {"iteration", "learning_rate", "objective"};
  EXPECT_EQ(join_with_commas(parts), "iteration,learning_rate,objective");
  EXPECT_EQ(split_at_commas(join_with_commas(parts)), parts);
  EXPECT_EQ(join_with_commas({}), "");
  EXPECT_EQ(join_with_commas({"", "a"}), ",a");
}
