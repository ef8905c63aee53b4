// Sweep tables: mean, sample standard deviation and range per value over the finished
// repeats only, against values computed by hand.

#include <gtest/gtest.h>

#include <cmath>

#include "eval/sweep_summary.h"

using bhpm::eval::SweepMember;

namespace {

SweepMember member(const std::string& value, double rmse, double mnlp, bool finished = true) {
  SweepMember m;
  m.value = value;
  m.rmse = rmse;
  m.mean_nlpd = mnlp;
  m.finished = finished;
  return m;
}

}  // namespace

TEST(SweepSummary, spread_is_mean_sample_sd_min_and_max) {
  const auto s = bhpm::eval::spread({1.0, 2.0, 6.0});
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.sd, std::sqrt(7.0));  // ((4 + 1 + 9) / 2)^(1/2)
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 6.0);
  EXPECT_DOUBLE_EQ(bhpm::eval::spread({5.0}).sd, 0.0);
  EXPECT_TRUE(std::isnan(bhpm::eval::spread({}).mean));
}

TEST(SweepSummary, rows_follow_the_values_and_leave_out_failed_repeats) {
  const std::vector<SweepMember> members = {member("2048", 0.1, -2.0), member("1024", 0.3, -1.0),
                                            member("1024", 0.5, -3.0),
                                            member("1024", 9.0, 9.0, false)};
  const auto rows = bhpm::eval::summarize_sweep(members, {"1024", "2048"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value, "1024");
  EXPECT_EQ(rows[0].finished, 2);
  EXPECT_EQ(rows[0].repeats, 3);
  EXPECT_DOUBLE_EQ(rows[0].rmse.mean, 0.4);
  EXPECT_DOUBLE_EQ(rows[0].mean_nlpd.mean, -2.0);
  EXPECT_DOUBLE_EQ(rows[0].mean_nlpd.sd, std::sqrt(2.0));
  EXPECT_EQ(rows[1].finished, 1);
  const std::string csv = bhpm::eval::sweep_members_csv("data.n_st", members);
  EXPECT_NE(csv.find("1024,0,0,0,,,,,"), std::string::npos) << csv;  // a failed member: no numbers
}
