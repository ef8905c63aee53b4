// The metrics as JSON text (exact layout, escaping, numbers that read back, null for
// non-finite values), read back by read_operator_scores, and as an aligned table.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "eval/metrics_json.h"
#include "support/error_message.h"

using bhpm::eval::metrics_comparison_table;
using bhpm::eval::metrics_json;
using bhpm::eval::OperatorMetrics;
using bhpm::eval::read_operator_scores;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

OperatorMetrics example() {
  OperatorMetrics m;
  m.points = 20100;
  m.rmse = 0.25;
  m.relative_rmse = 0.125;
  m.median_nlpd = -1.5;
  m.mean_nlpd = 2.75;
  m.coverage = {{0.5, 0.487}, {0.9, 0.875}, {0.95, 0.9375}};
  return m;
}

}  // namespace

TEST(MetricsJson, writes_every_key_with_two_space_indentation) {
  const std::string json =
      metrics_json(example(), {{"data", "test.h5"}, {"equation", "u_t = 0.1 u_xx"}}, {0.5, 0.0625});
  EXPECT_EQ(json,
            "{\n"
            "  \"data\": \"test.h5\",\n"
            "  \"equation\": \"u_t = 0.1 u_xx\",\n"
            "  \"points\": 20100,\n"
            "  \"rmse\": 0.25,\n"
            "  \"relative_rmse\": 0.125,\n"
            "  \"median_nlpd\": -1.5,\n"
            "  \"mean_nlpd\": 2.75,\n"
            "  \"coverage\": {\n"
            "    \"0.5\": 0.487,\n"
            "    \"0.9\": 0.875,\n"
            "    \"0.95\": 0.9375\n"
            "  },\n"
            "  \"rmse_per_experiment\": [\n"
            "    0.5,\n"
            "    0.0625\n"
            "  ]\n"
            "}\n");
}

TEST(MetricsJson, empty_lists_are_written_as_empty_containers) {
  OperatorMetrics m = example();
  m.coverage.clear();
  const std::string json = metrics_json(m, {}, {});
  EXPECT_THAT(json, HasSubstr("  \"coverage\": {},\n"));
  EXPECT_THAT(json, HasSubstr("  \"rmse_per_experiment\": []\n}\n"));
  EXPECT_EQ(json.substr(0, 18), "{\n  \"points\": 2010");
}

TEST(MetricsJson, strings_are_escaped) {
  const std::string json = metrics_json(example(), {{"run \"a\"", "C:\\runs\nx\t\x01"}}, {});
  EXPECT_THAT(json, HasSubstr("  \"run \\\"a\\\"\": \"C:\\\\runs\\nx\\t\\u0001\",\n"));
  EXPECT_EQ(nlohmann::json::parse(json).at("run \"a\"").get<std::string>(), "C:\\runs\nx\t\x01");
}

TEST(MetricsJson, read_operator_scores_reads_what_metrics_json_wrote) {
  const std::string path = testing::TempDir() + "metrics_round_trip.json";
  std::ofstream(path) << metrics_json(
      example(), {{"true_equation", "u_t = 0.1 u_xx"}, {"learned_mean", "u_t ~ +0.1 u_xx"}}, {0.5});
  const bhpm::eval::OperatorScores scores = read_operator_scores(path);
  EXPECT_EQ(scores.true_equation, "u_t = 0.1 u_xx");
  EXPECT_EQ(scores.learned_mean, "u_t ~ +0.1 u_xx");
  EXPECT_EQ(scores.points, 20100);
  EXPECT_EQ(scores.rmse, 0.25);
  EXPECT_EQ(scores.relative_rmse, 0.125);
  EXPECT_EQ(scores.median_nlpd, -1.5);
  EXPECT_EQ(scores.mean_nlpd, 2.75);
  EXPECT_EQ(scores.coverage50, 0.487);
  EXPECT_EQ(scores.coverage90, 0.875);
  EXPECT_EQ(scores.coverage95, 0.9375);
}

TEST(MetricsJson, non_finite_numbers_are_null_and_finite_ones_read_back_exactly) {
  OperatorMetrics m = example();
  m.relative_rmse = std::numeric_limits<double>::quiet_NaN();
  m.mean_nlpd = std::numeric_limits<double>::infinity();
  const std::string json = metrics_json(m, {}, {1.0, std::nan(""), -INFINITY});
  EXPECT_THAT(json, HasSubstr("  \"relative_rmse\": null,\n"));
  EXPECT_THAT(json, HasSubstr("  \"mean_nlpd\": null,\n"));
  EXPECT_THAT(json, HasSubstr("[\n    1.0,\n    null,\n    null\n  ]"));

  for (const double value : {1.0 / 3.0, 2.0 / 3.0, M_PI, 1e-300, 6.02214076e23, -0.95, 5e-324}) {
    m.rmse = value;
    const nlohmann::json parsed = nlohmann::json::parse(metrics_json(m, {}, {}));
    EXPECT_EQ(parsed.at("rmse").get<double>(), value) << parsed.at("rmse");
  }
  m.rmse = 0.1;
  EXPECT_THAT(metrics_json(m, {}, {}), HasSubstr("  \"rmse\": 0.1,\n"));
}

TEST(MetricsJson, context_keys_must_not_clash) {
  EXPECT_THROW(metrics_json(example(), {{"rmse", "x"}}, {}), std::invalid_argument);
  EXPECT_THAT(error_message([] {
                metrics_json(example(), {{"data", "a"}, {"data", "b"}}, {});
              }),
              AllOf(HasSubstr("\"data\""), HasSubstr("unique")));
}

TEST(MetricsJson, table_has_one_aligned_line_per_metric_and_a_column_per_scoring) {
  bhpm::eval::OperatorMetrics other = example();
  other.rmse = 0.5;
  EXPECT_EQ(metrics_comparison_table({{"truth", example()}, {"truth-free", other}}),
            "                truth         truth-free\n"
            "points          20100         20100\n"
            "RMSE            0.25          0.5\n"
            "relative RMSE   0.125         0.125\n"
            "median NLPD     -1.5          -1.5\n"
            "mean NLPD       2.75          2.75\n"
            "coverage 50%    48.7%         48.7%\n"
            "coverage 90%    87.5%         87.5%\n"
            "coverage 95%    93.8%         93.8%\n");
}
