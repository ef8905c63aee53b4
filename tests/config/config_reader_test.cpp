// ConfigReader: typed reads with defaults, strict rejection of unknown keys and wrong
// types, command-line overrides, syntax errors and the resolved configuration.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config_reader.h"
#include "support/error_message.h"

using bhpm::config::ConfigError;
using bhpm::config::ConfigReader;
using testing::ContainsRegex;
using testing::HasSubstr;

namespace {

/// The message of the ConfigError that `action` throws; fails the test when none is thrown.
template <typename Action>
std::string config_error(Action action) {
  return bhpm::testing_support::error_message<ConfigError>(action);
}

}  // namespace

TEST(ConfigReader, reads_typed_values_and_falls_back_to_defaults) {
  ConfigReader reader = ConfigReader::from_string(
      "seed = 7\n[solver]\ndt = 0.25\nmodes = 64\ndealias = false\nname = \"etd\"\n"
      "linear = [1.5, -2, 3]\n",
      "typed.toml");
  auto top = reader.section("");
  EXPECT_EQ(top.integer("seed", 0), 7);
  auto solver = reader.section("solver");
  EXPECT_DOUBLE_EQ(solver.number("dt", 1.0), 0.25);
  EXPECT_EQ(solver.integer("modes", 8), 64);
  EXPECT_FALSE(solver.boolean("dealias", true));
  EXPECT_EQ(solver.string("name", "x"), "etd");
  EXPECT_EQ(solver.numbers("linear", {}), (std::vector<double>{1.5, -2.0, 3.0}));
  EXPECT_TRUE(solver.has("dt"));
  EXPECT_FALSE(solver.has("absent"));
  // Absent keys and absent sections give the fallback.
  EXPECT_DOUBLE_EQ(solver.number("absent_number", 2.5), 2.5);
  EXPECT_EQ(solver.integer("absent_integer", -3), -3);
  EXPECT_TRUE(solver.boolean("absent_boolean", true));
  EXPECT_EQ(solver.string("absent_string", "fallback"), "fallback");
  EXPECT_EQ(solver.numbers("absent_numbers", {4.0}), (std::vector<double>{4.0}));
  auto other = reader.section("other");
  EXPECT_EQ(other.integer("n", 11), 11);
  EXPECT_NO_THROW(reader.reject_unknown_keys());
  EXPECT_EQ(solver.field("dt"), "typed.toml: solver.dt");
  EXPECT_EQ(top.field("seed"), "typed.toml: seed");
}

TEST(ConfigReader, integers_are_accepted_where_numbers_are_expected) {
  ConfigReader reader = ConfigReader::from_string("[domain]\nt_end = 3\n", "int.toml");
  auto domain = reader.section("domain");
  EXPECT_DOUBLE_EQ(domain.number("t_end", 1.0), 3.0);
}

TEST(ConfigReader, unknown_key_in_known_section_is_named_with_source) {
  ConfigReader reader = ConfigReader::from_string("[solver]\nmodes = 32\nmode = 3\n", "run.toml");
  reader.section("solver").integer("modes", 8);
  const std::string message = config_error([&] { reader.reject_unknown_keys(); });
  EXPECT_THAT(message, HasSubstr("run.toml"));
  EXPECT_THAT(message, HasSubstr("solver.mode"));
  EXPECT_THAT(message, HasSubstr("unknown key"));
  EXPECT_THAT(message, HasSubstr("modes"));  // the known keys are listed
}

TEST(ConfigReader, unknown_section_and_unknown_top_level_key_are_errors) {
  ConfigReader sections =
      ConfigReader::from_string("[solver]\nmodes = 32\n[solvr]\nx = 1\n", "sections.toml");
  sections.section("solver").integer("modes", 8);
  const std::string message = config_error([&] { sections.reject_unknown_keys(); });
  EXPECT_THAT(message, HasSubstr("sections.toml"));
  EXPECT_THAT(message, HasSubstr("unknown section [solvr]"));
  EXPECT_THAT(message, HasSubstr("solver"));

  ConfigReader top = ConfigReader::from_string("sed = 1\n", "top.toml");
  top.section("").integer("seed", 0);
  EXPECT_THAT(config_error([&] { top.reject_unknown_keys(); }),
              AllOf(HasSubstr("top.toml"), HasSubstr("sed"), HasSubstr("unknown top-level key")));
}

TEST(ConfigReader, wrong_types_are_errors_naming_the_field) {
  ConfigReader reader = ConfigReader::from_string(
      "[solver]\ndt = \"small\"\nmodes = 32.0\ndealias = 1\nname = 3\nlinear = [1, \"a\"]\n"
      "scalar = 2\n",
      "types.toml");
  auto solver = reader.section("solver");
  EXPECT_THAT(config_error([&] { solver.number("dt", 1.0); }),
              AllOf(HasSubstr("types.toml: solver.dt"), HasSubstr("expected a number"),
                    HasSubstr("\"small\"")));
  EXPECT_THAT(config_error([&] { solver.integer("modes", 8); }),
              AllOf(HasSubstr("types.toml: solver.modes"), HasSubstr("expected an integer")));
  EXPECT_THAT(config_error([&] { solver.boolean("dealias", true); }),
              HasSubstr("types.toml: solver.dealias"));
  EXPECT_THAT(config_error([&] { solver.string("name", ""); }),
              AllOf(HasSubstr("types.toml: solver.name"), HasSubstr("expected a string")));
  EXPECT_THAT(config_error([&] { solver.numbers("linear", {}); }),
              HasSubstr("types.toml: solver.linear"));
  EXPECT_THAT(config_error([&] { solver.numbers("scalar", {}); }),
              HasSubstr("types.toml: solver.scalar"));
}

TEST(ConfigReader, a_value_where_a_section_is_expected_is_an_error) {
  ConfigReader reader = ConfigReader::from_string("solver = 3\n", "flat.toml");
  EXPECT_THAT(config_error([&] { reader.section("solver"); }),
              AllOf(HasSubstr("flat.toml"), HasSubstr("'solver' must be a section")));
}

TEST(ConfigReader, require_reports_field_rule_and_value) {
  ConfigReader reader = ConfigReader::from_string("", "rule.toml");
  auto solver = reader.section("solver");
  EXPECT_NO_THROW(solver.require(true, "modes", "must be even", "3"));
  EXPECT_EQ(config_error([&] { solver.require(false, "modes", "must be even", "3"); }),
            "rule.toml: solver.modes: must be even (got 3)");
}

TEST(ConfigReader, overrides_are_read_as_toml_values) {
  ConfigReader reader =
      ConfigReader::from_string("seed = 1\n[solver]\ndt = 0.5\nmodes = 16\n", "over.toml");
  reader.apply_override("solver.dt=1e-2");
  reader.apply_override("solver.modes=64");
  reader.apply_override("solver.dealias=false");
  reader.apply_override("equation.linear=[0, 0.5, -1]");
  reader.apply_override("equation.name=kdv");                // not TOML: a plain string
  reader.apply_override("equation.nonlinear=-u*u_x");        // not TOML: a plain string
  reader.apply_override("equation.quoted=\"with spaces\"");  // a TOML string
  reader.apply_override("seed=9");                           // top-level key
  auto solver = reader.section("solver");
  EXPECT_DOUBLE_EQ(solver.number("dt", 1.0), 1e-2);
  EXPECT_EQ(solver.integer("modes", 8), 64);
  EXPECT_FALSE(solver.boolean("dealias", true));
  auto equation = reader.section("equation");  // a section created by the overrides
  EXPECT_EQ(equation.numbers("linear", {}), (std::vector<double>{0.0, 0.5, -1.0}));
  EXPECT_EQ(equation.string("name", "burgers"), "kdv");
  EXPECT_EQ(equation.string("nonlinear", ""), "-u*u_x");
  EXPECT_EQ(equation.string("quoted", ""), "with spaces");
  EXPECT_EQ(reader.section("").integer("seed", 0), 9);
  EXPECT_NO_THROW(reader.reject_unknown_keys());
}

TEST(ConfigReader, errors_in_overridden_keys_name_the_command_line) {
  ConfigReader reader = ConfigReader::from_string("[solver]\nmodes = 16\ndt = 1\n", "file.toml");
  reader.apply_override("solver.modes=3");
  auto solver = reader.section("solver");
  EXPECT_EQ(config_error([&] { solver.require(false, "modes", "must be even", "3"); }),
            "--set solver.modes: must be even (got 3)");
  EXPECT_EQ(solver.field("dt"), "file.toml: solver.dt");
}

TEST(ConfigReader, an_owners_rule_is_reported_with_the_fields_source_and_section_key) {
  ConfigReader reader = ConfigReader::from_string("[predict]\nsamples = 0\n", "file.toml");
  reader.apply_override("predict.pinn_iterations=0");
  auto predict = reader.section("predict");
  // The owner names its nested options by their path; the section maps them to its keys.
  const auto owner_check = [](const std::string& key) {
    return [key] { bhpm::util::require_at_least(0, 1, "predict", key); };
  };
  EXPECT_EQ(config_error([&] { predict.validate(owner_check("samples")); }),
            "file.toml: predict.samples: must be >= 1 (got 0)");
  EXPECT_EQ(
      config_error([&] {
        predict.validate(owner_check("pinn.iterations"), {{"refinement.", ""}, {"pinn.", "pinn_"}});
      }),
      "--set predict.pinn_iterations: must be >= 1 (got 0)");
  EXPECT_EQ(config_error([&] {
              predict.validate(owner_check("refinement.max_rounds"), {{"refinement.", ""}});
            }),
            "file.toml: predict.max_rounds: must be >= 1 (got 0)");
  // A key of another section, named in full by the reader's mapping.
  EXPECT_EQ(config_error([&] {
              reader.validate(owner_check("t_end"), {{"t_end", "domain.t_end"}, {"", "solver."}});
            }),
            "file.toml: domain.t_end: must be >= 1 (got 0)");
  EXPECT_NO_THROW(predict.validate([] {}));
}

TEST(ConfigReader, field_names_outlive_the_reader_and_say_where_a_value_came_from) {
  bhpm::util::FieldNames section_names, dotted_names;
  {
    ConfigReader reader = ConfigReader::from_string("[run]\ndata = \"a.h5\"\n", "file.toml");
    reader.apply_override("run.predict_experiments=[1]");
    section_names = reader.section("run").field_names();
    dotted_names = reader.field_names();
  }
  EXPECT_EQ(section_names("data"), "file.toml: run.data");
  EXPECT_EQ(section_names("predict_experiments"), "--set run.predict_experiments");
  EXPECT_EQ(dotted_names("run.predict_experiments"), "--set run.predict_experiments");
  EXPECT_EQ(dotted_names("seed"), "file.toml: seed");
}

TEST(ConfigReader, overrides_of_unread_keys_are_still_rejected) {
  ConfigReader reader = ConfigReader::from_string("[solver]\nmodes = 16\n", "over.toml");
  reader.apply_override("solver.mode=3");
  reader.section("solver").integer("modes", 8);
  EXPECT_THAT(config_error([&] { reader.reject_unknown_keys(); }), HasSubstr("solver.mode"));

  ConfigReader fresh = ConfigReader::from_string("", "fresh.toml");
  fresh.apply_override("extra.key=1");
  EXPECT_THAT(config_error([&] { fresh.reject_unknown_keys(); }),
              HasSubstr("unknown section [extra]"));
}

TEST(ConfigReader, malformed_overrides_are_errors) {
  ConfigReader reader = ConfigReader::from_string("seed = 1\n", "bad.toml");
  for (const std::string assignment : {"solver.modes", "=3", "solver.=3", "a.b.c=1"})
    EXPECT_THAT(config_error([&] { reader.apply_override(assignment); }),
                AllOf(HasSubstr(assignment), HasSubstr("section.key=value")))
        << assignment;
  for (const std::string assignment : {"solver.modes", "=3", "solver.=3", "a.b.c=1"})
    EXPECT_EQ(ConfigReader::override_form_error(assignment),
              "--set '" + assignment + "': expected section.key=value");
  EXPECT_EQ(ConfigReader::override_form_error("seed=1"), "");
  EXPECT_EQ(ConfigReader::override_form_error("predict.ic=a=b"), "");
  EXPECT_THAT(config_error([&] { reader.apply_override("seed.x=1"); }),
              HasSubstr("'seed' is not a section"));
}

TEST(ConfigReader, syntax_error_reports_source_line_and_column) {
  const std::string message = config_error(
      [] { ConfigReader::from_string("seed = 1\n[solver]\nmodes = = 3\n", "broken.toml"); });
  EXPECT_THAT(message, ContainsRegex("^broken\\.toml:3:[0-9]+: invalid TOML"));
}

TEST(ConfigReader, missing_file_is_an_error_naming_it) {
  EXPECT_THAT(config_error([] { ConfigReader::from_file("/nonexistent/bhpm/config.toml"); }),
              HasSubstr("/nonexistent/bhpm/config.toml"));
}

TEST(ConfigReader, resolved_toml_holds_defaults_and_round_trips) {
  ConfigReader reader = ConfigReader::from_string("seed = 3\n[solver]\ndt = 0.125\n", "first.toml");
  reader.apply_override("equation.name=heat");
  const auto seed = reader.section("").integer("seed", 0);
  auto solver = reader.section("solver");
  const double dt = solver.number("dt", 1.0);
  const auto modes = solver.integer("modes", 256);       // default
  const bool dealias = solver.boolean("dealias", true);  // default
  auto equation = reader.section("equation");
  const std::string name = equation.string("name", "burgers");
  const auto linear = equation.numbers("linear", {0.0, 0.1});  // default
  const double nu = equation.number("nu", 0.1);                // default

  const std::string resolved = reader.resolved_toml();
  EXPECT_THAT(resolved, HasSubstr("[solver]"));
  EXPECT_THAT(resolved, HasSubstr("modes = 256"));
  EXPECT_THAT(resolved, HasSubstr("dealias = true"));
  EXPECT_THAT(resolved, ContainsRegex("name = [\"']heat[\"']"));

  // Read back with fallbacks that differ from every value: all must come from the text.
  ConfigReader again = ConfigReader::from_string(resolved, "resolved.toml");
  EXPECT_EQ(again.section("").integer("seed", -1), seed);
  auto solver2 = again.section("solver");
  EXPECT_EQ(solver2.number("dt", -1.0), dt);
  EXPECT_EQ(solver2.integer("modes", -1), modes);
  EXPECT_EQ(solver2.boolean("dealias", !dealias), dealias);
  auto equation2 = again.section("equation");
  EXPECT_EQ(equation2.string("name", ""), name);
  EXPECT_EQ(equation2.numbers("linear", {}), linear);
  EXPECT_EQ(equation2.number("nu", -1.0), nu);
  EXPECT_NO_THROW(again.reject_unknown_keys());  // nothing but what was read
  EXPECT_EQ(again.resolved_toml(), resolved);
}

TEST(ConfigReader, string_keys_keep_override_text_that_looks_like_toml) {
  ConfigReader reader = ConfigReader::from_string("", "cli.toml");
  reader.apply_override("initial_condition.expression=1");
  reader.apply_override("initial_condition.amplitude=2");
  auto section = reader.section("initial_condition");
  EXPECT_EQ(section.string("expression", "x"), "1");
  EXPECT_DOUBLE_EQ(section.number("amplitude", 1.0), 2.0);
}
