// The [run] section (stage list in pipeline order, predicted experiments), arrays of
// strings and integers in ConfigReader, config_differences, which decides whether
// `bhpm run` may reuse a stored output, and the samples' time steps of [predict].

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_difference.h"
#include "config/pipeline_config.h"
#include "config/predict_config.h"
#include "support/error_message.h"

using bhpm::config::ConfigError;
using bhpm::config::ConfigReader;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

bhpm::config::PipelineConfig pipeline(const std::string& text,
                                      const std::vector<std::string>& overrides = {}) {
  ConfigReader reader = ConfigReader::from_string(text, "run.toml");
  for (const auto& o : overrides) reader.apply_override(o);
  return bhpm::config::read_pipeline_config(reader, "/configs");
}

std::string pipeline_error(const std::string& text,
                           const std::vector<std::string>& overrides = {}) {
  return bhpm::testing_support::error_message<ConfigError>([&] { pipeline(text, overrides); });
}

}  // namespace

TEST(PipelineConfig, defaults_to_the_whole_job_and_orders_listed_stages) {
  const auto defaults = pipeline("");
  EXPECT_THAT(defaults.stages,
              ElementsAre("simulate", "train", "calibrate", "evaluate", "predict", "report"));
  EXPECT_THAT(defaults.predict_experiments, ElementsAre(0));
  const auto listed =
      pipeline("[run]\nstages = [\"evaluate\", \"simulate\"]\npredict_experiments = [2, 0]\n");
  EXPECT_THAT(listed.stages, ElementsAre("simulate", "evaluate"));
  EXPECT_THAT(listed.predict_experiments, ElementsAre(2, 0));
  EXPECT_TRUE(listed.runs("evaluate"));
  EXPECT_FALSE(listed.runs("train"));
}

TEST(PipelineConfig, takes_the_dataset_and_initial_condition_files_from_the_configuration_folder) {
  EXPECT_EQ(pipeline("").data, "");
  EXPECT_TRUE(pipeline("").predict_ic_files.empty());
  const auto given = pipeline(
      "[run]\ndata = \"../out/data.h5\"\npredict_ic_files = [\"u0.csv\", \"/abs/u1.csv\"]\n");
  EXPECT_EQ(given.data, "/configs/../out/data.h5");
  EXPECT_THAT(given.predict_ic_files, ElementsAre("/configs/u0.csv", "/abs/u1.csv"));
  EXPECT_EQ(pipeline("", {"run.data=/data/sensors.h5"}).data, "/data/sensors.h5");
  EXPECT_THAT(pipeline_error("[run]\npredict_ic_files = [\"a/u0.csv\", \"b/u0.csv\"]\n"),
              HasSubstr("run.predict_ic_files: each file needs a name of its own"));
}

TEST(PipelineConfig, an_override_may_list_stages_separated_by_commas) {
  EXPECT_THAT(pipeline("", {"run.stages=train,simulate"}).stages, ElementsAre("simulate", "train"));
}

TEST(PipelineConfig, refuses_unknown_repeated_and_empty_stages_and_bad_experiments) {
  EXPECT_THAT(pipeline_error("[run]\nstages = [\"simulate\", \"fit\"]\n"),
              HasSubstr("run.toml: run.stages: each stage must be one of"));
  EXPECT_THAT(pipeline_error("[run]\nstages = [\"train\", \"train\"]\n"),
              HasSubstr("lists a stage twice"));
  EXPECT_THAT(pipeline_error("[run]\nstages = []\n"), HasSubstr("must name at least one stage"));
  EXPECT_THAT(pipeline_error("[run]\nstages = [1]\n"), HasSubstr("expected an array of strings"));
  EXPECT_THAT(pipeline_error("[run]\npredict_experiments = [-1]\n"),
              HasSubstr("run.predict_experiments: indices must be >= 0 (got -1)"));
  EXPECT_THAT(pipeline_error("[run]\npredict_experiments = [1, 1]\n"),
              HasSubstr("lists an experiment twice"));
  EXPECT_THAT(pipeline_error("[run]\npredict_experiments = [0.5]\n"),
              HasSubstr("expected an array of integers"));
}

TEST(ConfigDifferences, lists_changed_added_and_removed_keys_of_the_named_sections_only) {
  const std::string stored = "seed = 1\n[data]\nn_st = 256\nnoise = 0.0\n[predict]\nsamples = 4\n";
  const std::string current =
      "seed = 1\n[data]\nn_st = 512\nextra = true\n[predict]\nsamples = 8\n";
  EXPECT_THAT(
      bhpm::config::config_differences(stored, "data.h5", current, {"", "data"}),
      ElementsAre("data.extra = (absent) there, true here", "data.n_st = 256 there, 512 here",
                  "data.noise = 0.0 there, (absent) here"));
  EXPECT_TRUE(
      bhpm::config::config_differences(stored, "data.h5", stored, {"", "data", "predict"}).empty());
  EXPECT_THAT(bhpm::config::config_differences(stored, "data.h5", current, {"predict"}),
              ElementsAre("predict.samples = 4 there, 8 here"));
  EXPECT_THAT(bhpm::config::config_differences("seed = 1\n", "a", "seed = 2\n", {""}),
              ElementsAre("seed = 1 there, 2 here"));
  // "section.key" compares that key alone.
  EXPECT_THAT(bhpm::config::config_differences(stored, "data.h5", current, {"data.noise"}),
              ElementsAre("data.noise = 0.0 there, (absent) here"));
  EXPECT_TRUE(bhpm::config::config_differences(stored, "data.h5", current, {"predict.dt"}).empty());
}

TEST(ConfigDifferences, refuses_a_stored_text_that_is_not_toml) {
  EXPECT_THAT(bhpm::testing_support::error_message<ConfigError>(
                  [] { bhpm::config::config_differences("[data", "root.h5", "", {"data"}); }),
              HasSubstr("root.h5: stored configuration is not TOML"));
}

TEST(PredictConfig, equation_terms_come_from_the_root_unless_asked_for_the_weak_form) {
  const auto terms = [](const std::string& text) {
    ConfigReader reader = ConfigReader::from_string(text, "run.toml");
    return bhpm::config::read_predict_config(reader).equation_terms;
  };
  EXPECT_EQ(terms(""), "root");
  EXPECT_EQ(terms("[predict]\nequation_terms = \"weak-form\"\n"), "weak-form");
  EXPECT_THAT(bhpm::testing_support::error_message<ConfigError>(
                  [&] { terms("[predict]\nequation_terms = \"pointwise\"\n"); }),
              HasSubstr("run.toml: predict.equation_terms"));
}

TEST(PredictConfig, samples_take_bounded_adaptive_steps_unless_step_tolerance_is_zero) {
  const auto steps = [](const std::string& text) {
    ConfigReader reader = ConfigReader::from_string(text, "run.toml");
    bhpm::pde::SolveOptions solve;
    solve.stepper.dt = 5e-3;
    bhpm::config::apply_time_steps(bhpm::config::read_predict_config(reader), solve);
    return solve;
  };
  EXPECT_EQ(steps("").tolerance, 1e-4);
  EXPECT_EQ(steps("").stepper.dt, 5e-3);
  EXPECT_EQ(steps("").max_interval_steps, 100);
  EXPECT_EQ(steps("[predict]\nmax_interval_steps = 0\n").max_interval_steps, 0);
  EXPECT_THAT(bhpm::testing_support::error_message<ConfigError>(
                  [&] { steps("[predict]\nmax_interval_steps = -1\n"); }),
              HasSubstr("run.toml: predict.max_interval_steps: must be >= 0 (0: no bound)"));
  const bhpm::pde::SolveOptions fixed = steps("[predict]\nstep_tolerance = 0\ndt = 0.02\n");
  EXPECT_EQ(fixed.tolerance, 0.0);
  EXPECT_EQ(fixed.stepper.dt, 0.02);
  EXPECT_THAT(bhpm::testing_support::error_message<ConfigError>(
                  [&] { steps("[predict]\nstep_tolerance = 1\n"); }),
              HasSubstr("run.toml: predict.step_tolerance"));
}
