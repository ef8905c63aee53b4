// The report's building blocks that need no gnuplot: metrics.json reading (null and absent
// numbers are NaN, a wrong type names its key), HTML escaping, the profile times, plot data
// refusing an empty block, and AtomicFolder replacing a folder whole or leaving nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "report/gnuplot.h"
#include "report/html_report.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "support/error_message.h"

namespace fs = std::filesystem;
using bhpm::testing_support::error_message;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

class ReportInputsTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "bhpm-report-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (folder_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  fs::path folder_;
};

}  // namespace

TEST_F(ReportInputsTest, metrics_read_with_null_and_absent_numbers_as_nan) {
  const auto scores = bhpm::eval::read_operator_scores(
      write("metrics.json", R"({"true_equation": "u_t = 0.1 u_xx", "points": 20100, "rmse": 0.5,
          "relative_rmse": null, "coverage": {"0.5": 0.25, "0.95": null}})"));
  EXPECT_EQ(scores.true_equation, "u_t = 0.1 u_xx");
  EXPECT_EQ(scores.points, 20100);
  EXPECT_EQ(scores.rmse, 0.5);
  EXPECT_TRUE(std::isnan(scores.relative_rmse));
  EXPECT_TRUE(std::isnan(scores.median_nlpd));
  EXPECT_EQ(scores.coverage50, 0.25);
  EXPECT_TRUE(std::isnan(scores.coverage90));
  EXPECT_TRUE(std::isnan(scores.coverage95));
}

TEST_F(ReportInputsTest, metrics_of_the_wrong_type_or_syntax_are_refused) {
  const std::string typed = write("typed.json", R"({"rmse": "small"})");
  EXPECT_THAT(error_message<std::runtime_error>([&] { bhpm::eval::read_operator_scores(typed); }),
              HasSubstr("typed.json: \"rmse\" is string, expected a number"));
  const std::string broken = write("broken.json", "{\"rmse\": ");
  EXPECT_THAT(error_message<std::runtime_error>([&] { bhpm::eval::read_operator_scores(broken); }),
              HasSubstr("broken.json: not a JSON object"));
}

TEST(HtmlReport, escapes_markup_and_quotes) {
  EXPECT_EQ(bhpm::report::escape_html("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
}

TEST(PlotCommands, profile_times_include_the_first_and_the_last) {
  EXPECT_THAT(bhpm::report::evenly_spaced_indices(11, 4), ElementsAre(0, 3, 7, 10));
  EXPECT_THAT(bhpm::report::evenly_spaced_indices(3, 4), ElementsAre(0, 1, 2));
  EXPECT_THAT(bhpm::report::evenly_spaced_indices(1, 4), ElementsAre(0));
}

TEST(Gnuplot, long_titles_wrap_at_spaces_with_quotes_escaped) {
  using bhpm::report::gnuplot_wrapped_string;
  EXPECT_EQ(gnuplot_wrapped_string("short title", 20), "\"short title\"");
  EXPECT_EQ(gnuplot_wrapped_string("aaa bbb ccc ddd", 7), "\"aaa bbb\\nccc ddd\"");
  EXPECT_EQ(gnuplot_wrapped_string("a verylongword b", 4), "\"a\\nverylongword\\nb\"");
  EXPECT_EQ(gnuplot_wrapped_string("say \"x\" \\ y", 40), "\"say \\\"x\\\" \\\\ y\"");
}

TEST(PlotCommands, colour_scales_are_symmetric_for_signed_fields) {
  const auto signed_scale = bhpm::report::colour_scale_for({-0.5, 2.0});
  EXPECT_TRUE(signed_scale.diverging);
  EXPECT_EQ(signed_scale.low, -2.0);
  const auto constant = bhpm::report::colour_scale_for({0.0, 0.0});
  EXPECT_FALSE(constant.diverging);
  EXPECT_LT(constant.low, constant.high);
}

TEST_F(ReportInputsTest, plot_data_refuses_a_block_without_a_finite_row) {
  const std::string path = (folder_ / "lines.dat").string();
  EXPECT_THAT(error_message([&] {
                bhpm::report::write_column_blocks(path, {{{1.0, 2.0}, {3.0, 4.0}}, {{1.0}, {NAN}}});
              }),
              HasSubstr("block 1 has no finite row"));
}

TEST_F(ReportInputsTest, atomic_folder_replaces_the_target_whole) {
  const fs::path target = folder_ / "report";
  fs::create_directory(target);
  std::ofstream(target / "stale") << "old";
  {
    bhpm::io::AtomicFolder folder(target.string());
    std::ofstream(fs::path(folder.temporary_path()) / "index.html") << "new";
    folder.commit();
  }
  EXPECT_TRUE(fs::exists(target / "index.html"));
  EXPECT_FALSE(fs::exists(target / "stale"));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder_), fs::directory_iterator()), 1);
}

TEST_F(ReportInputsTest, atomic_folder_without_commit_leaves_the_target_and_no_temporary) {
  const fs::path target = folder_ / "report";
  fs::create_directory(target);
  std::ofstream(target / "kept") << "old";
  {
    bhpm::io::AtomicFolder folder(target.string());
    std::ofstream(fs::path(folder.temporary_path()) / "index.html") << "new";
  }
  EXPECT_TRUE(fs::exists(target / "kept"));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder_), fs::directory_iterator()), 1);
}
