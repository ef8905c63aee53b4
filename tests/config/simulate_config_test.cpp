// read_simulate_config: per-equation defaults and one ConfigError, naming the field, for
// every rule a configuration can break.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "config/config_reader.h"
#include "config/simulate_config.h"

using bhpm::config::ConfigError;
using bhpm::config::ConfigReader;
using bhpm::config::SimulateConfig;
using testing::HasSubstr;

namespace {

SimulateConfig read(const std::string& text, const std::string& base_dir = "") {
  ConfigReader reader = ConfigReader::from_string(text, "sim.toml");
  SimulateConfig config = bhpm::config::read_simulate_config(reader, base_dir);
  reader.reject_unknown_keys();
  return config;
}

/// The ConfigError message for `text`; fails the test when the text is accepted.
std::string error_for(const std::string& text) {
  try {
    read(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return "";
}

// A small valid configuration: 11 output times x 32 points = 352 grid points.
const std::string kSmall = "[domain]\nt_end = 1\n[solver]\nmodes = 32\noutput_dt = 0.1\n";

}  // namespace

TEST(SimulateConfig, burgers_defaults) {
  const SimulateConfig config = read("[equation]\nname = \"burgers\"\n");
  EXPECT_EQ(config.equation.name, "burgers");
  EXPECT_DOUBLE_EQ(config.x_min, -8.0);
  EXPECT_DOUBLE_EQ(config.x_max, 8.0);
  EXPECT_DOUBLE_EQ(config.solve.t_end, 10.0);
  EXPECT_EQ(config.modes, 256);
  EXPECT_DOUBLE_EQ(config.equation.nu, 0.1);
  EXPECT_EQ(config.initial_condition.kind, "gp");
  EXPECT_GE(config.measurements.n_st, 1);
  EXPECT_DOUBLE_EQ(config.measurements.noise, 0.0);
  EXPECT_EQ(config.seed, 0u);
}

TEST(SimulateConfig, empty_configuration_is_burgers) {
  const SimulateConfig config = read("");
  EXPECT_EQ(config.equation.name, "burgers");
  EXPECT_EQ(config.modes, 256);
}

TEST(SimulateConfig, kdv_defaults) {
  const SimulateConfig config = read("[equation]\nname = \"kdv\"\n");
  EXPECT_EQ(config.equation.name, "kdv");
  EXPECT_DOUBLE_EQ(config.x_min, -20.0);
  EXPECT_DOUBLE_EQ(config.x_max, 20.0);
  EXPECT_DOUBLE_EQ(config.solve.t_end, 40.0);
  EXPECT_EQ(config.modes, 512);
}

TEST(SimulateConfig, values_from_the_file_override_defaults) {
  const SimulateConfig config =
      read("seed = 5\n" + kSmall +
           "[data]\nn_st = 352\nnoise = 0.1\ntrain_experiments = 3\ntest_experiments = 0\n");
  EXPECT_EQ(config.seed, 5u);
  EXPECT_DOUBLE_EQ(config.solve.t_end, 1.0);
  EXPECT_DOUBLE_EQ(config.solve.output_dt, 0.1);
  EXPECT_EQ(config.modes, 32);
  EXPECT_EQ(config.measurements.n_st, 352);  // exactly the whole grid is allowed
  EXPECT_DOUBLE_EQ(config.measurements.noise, 0.1);
  EXPECT_EQ(config.train_experiments, 3);
  EXPECT_EQ(config.test_experiments, 0);
}

TEST(SimulateConfig, modes_must_be_positive_and_even) {
  for (const std::string modes : {"0", "-4", "33", "2"})
    EXPECT_THAT(error_for("[solver]\nmodes = " + modes + "\n"), HasSubstr("sim.toml: solver.modes"))
        << modes;
}

TEST(SimulateConfig, dt_must_be_positive) {
  EXPECT_THAT(error_for("[solver]\ndt = 0\n"), HasSubstr("sim.toml: solver.dt"));
  EXPECT_THAT(error_for("[solver]\ndt = -1\n"),
              AllOf(HasSubstr("sim.toml: solver.dt"), HasSubstr("(got -1)")));
}

TEST(SimulateConfig, output_dt_must_divide_t_end) {
  EXPECT_THAT(error_for("[domain]\nt_end = 1\n[solver]\noutput_dt = 0.3\n"),
              AllOf(HasSubstr("sim.toml: solver.output_dt"), HasSubstr("must divide")));
  EXPECT_THAT(error_for("[domain]\nt_end = 1\n[solver]\noutput_dt = 2\n"),
              HasSubstr("sim.toml: solver.output_dt"));
  EXPECT_THAT(error_for("[domain]\nt_end = 1\n[solver]\noutput_dt = -0.1\n"),
              HasSubstr("sim.toml: solver.output_dt"));
  EXPECT_NO_THROW(read("[domain]\nt_end = 1\n[solver]\noutput_dt = 0.25\n[data]\nn_st = 100\n"));
}

TEST(SimulateConfig, t_end_must_be_positive) {
  EXPECT_THAT(error_for("[domain]\nt_end = 0\n"), HasSubstr("sim.toml: domain.t_end"));
}

TEST(SimulateConfig, noise_must_not_be_negative) {
  EXPECT_THAT(error_for("[data]\nnoise = -0.1\n"), HasSubstr("sim.toml: data.noise"));
}

TEST(SimulateConfig, n_st_must_fit_in_the_grid) {
  EXPECT_THAT(error_for(kSmall + "[data]\nn_st = 353\n"),
              AllOf(HasSubstr("sim.toml: data.n_st"), HasSubstr("352"), HasSubstr("(got 353)")));
  EXPECT_THAT(error_for("[data]\nn_st = 0\n"), HasSubstr("sim.toml: data.n_st"));
}

TEST(SimulateConfig, sizes_beyond_the_memory_are_refused_with_the_estimate) {
  // 1e9 modes x 201 stored times x 20 experiments x 8 bytes: 3.2e13 bytes, past any machine
  // this runs on; the default grid is far inside.
  EXPECT_THAT(error_for("[solver]\nmodes = 1000000000\n"),
              AllOf(HasSubstr("sim.toml: solver.modes (with data.train_experiments and "
                              "data.test_experiments): the simulation needs about"),
                    HasSubstr("x 1000000000 points"), HasSubstr("of memory")));
  EXPECT_THAT(error_for("[data]\ntrain_experiments = 1000000000000\n"), HasSubstr("needs about"));
  EXPECT_NO_THROW(read(""));
}

TEST(SimulateConfig, experiment_counts_are_checked) {
  EXPECT_THAT(error_for("[data]\ntrain_experiments = 0\n"),
              HasSubstr("sim.toml: data.train_experiments"));
  EXPECT_THAT(error_for("[data]\ntest_experiments = -1\n"),
              HasSubstr("sim.toml: data.test_experiments"));
  EXPECT_THAT(error_for("seed = -1\n"), HasSubstr("sim.toml: seed"));
}

TEST(SimulateConfig, unknown_equation_is_an_error_listing_the_known_ones) {
  EXPECT_THAT(
      error_for("[equation]\nname = \"navier_stokes\"\n"),
      AllOf(HasSubstr("sim.toml: equation.name"), HasSubstr("navier_stokes"), HasSubstr("kdv")));
}

TEST(SimulateConfig, linear_coefficients_are_limited) {
  EXPECT_THAT(error_for("[equation]\nname = \"general\"\nlinear = [0, 0, 0, 0, 0, 0, 0, 1]\n"),
              HasSubstr("sim.toml: equation.linear"));
}

TEST(SimulateConfig, x_max_must_exceed_x_min) {
  EXPECT_THAT(error_for("[domain]\nx_min = 1\nx_max = 1\n"), HasSubstr("sim.toml: domain.x_max"));
  EXPECT_THAT(error_for("[domain]\nx_min = 2\nx_max = -2\n"), HasSubstr("sim.toml: domain.x_max"));
}

TEST(SimulateConfig, length_scale_has_a_minimum) {
  EXPECT_THAT(error_for("[initial_condition]\nlength_scale = 0.01\n"),
              HasSubstr("sim.toml: initial_condition.length_scale"));
  EXPECT_NO_THROW(read("[initial_condition]\nlength_scale = 0.05\n"));
  EXPECT_THAT(error_for("[initial_condition]\namplitude = 0\n"),
              HasSubstr("sim.toml: initial_condition.amplitude"));
}

TEST(SimulateConfig, initial_condition_kind_is_checked) {
  EXPECT_THAT(error_for("[initial_condition]\nkind = \"file\"\n"),
              HasSubstr("sim.toml: initial_condition.file"));
  EXPECT_THAT(error_for("[initial_condition]\nkind = \"random\"\n"),
              HasSubstr("sim.toml: initial_condition.kind"));
}

TEST(SimulateConfig, relative_initial_condition_file_is_taken_from_the_config_folder) {
  const SimulateConfig relative =
      read("[initial_condition]\nkind = \"file\"\nfile = \"u0.txt\"\n", "/data/runs");
  EXPECT_EQ(relative.initial_condition.file, "/data/runs/u0.txt");
  const SimulateConfig absolute =
      read("[initial_condition]\nkind = \"file\"\nfile = \"/abs/u0.txt\"\n", "/data/runs");
  EXPECT_EQ(absolute.initial_condition.file, "/abs/u0.txt");
}

TEST(SimulateConfig, a_bounded_domain_reads_its_conditions_and_intervals) {
  const SimulateConfig bounded = read(
      "[domain]\nboundary = \"conditions\"\nleft = [\"u = 0\"]\n"
      "right = [\"u = sin(t)\", \"u_x = 0\"]\n[solver]\nintervals = 64\n");
  EXPECT_TRUE(bounded.bounded());
  ASSERT_EQ(bounded.conditions.left.size(), 1u);
  ASSERT_EQ(bounded.conditions.right.size(), 2u);
  EXPECT_EQ(bounded.conditions.right[1].describe(), "u_x = 0");
  EXPECT_EQ(bounded.intervals, 64);
  const SimulateConfig walls_by_default = read("[domain]\nboundary = \"conditions\"\n");
  EXPECT_TRUE(walls_by_default.conditions.left.empty());  // counted against the operator later
  EXPECT_EQ(walls_by_default.intervals, 128);
  EXPECT_FALSE(read("").bounded());
  EXPECT_THAT(error_for("[domain]\nleft = [\"u = 0\"]\n"),
              HasSubstr("sim.toml: domain.left: is read on a bounded domain only"));
  EXPECT_THAT(error_for("[solver]\nintervals = 64\n"),
              HasSubstr("sim.toml: solver.intervals: is read on a bounded domain only"));
  EXPECT_THAT(error_for("[domain]\nboundary = \"conditions\"\nleft = [\"u_x =\"]\n"),
              HasSubstr("sim.toml: domain.left: \"u_x =\": the boundary data after '=' is empty"));
  EXPECT_THAT(error_for("[domain]\nboundary = \"conditions\"\n[solver]\nintervals = 2\n"),
              HasSubstr("sim.toml: solver.intervals: must be in [4, 1024]"));
  EXPECT_THAT(error_for("[domain]\nboundary = \"walls\"\n"), HasSubstr("domain.boundary"));
}

TEST(SimulateConfig, wrong_type_names_the_field) {
  EXPECT_THAT(error_for("[solver]\nmodes = \"abc\"\n"),
              AllOf(HasSubstr("sim.toml: solver.modes"), HasSubstr("expected an integer")));
}

TEST(SimulateConfig, misspelled_key_is_caught_by_reject_unknown_keys) {
  ConfigReader reader = ConfigReader::from_string("[solver]\nmode = 32\n", "sim.toml");
  const SimulateConfig config = bhpm::config::read_simulate_config(reader, "");
  EXPECT_EQ(config.modes, 256);  // the misspelled key did not set modes
  try {
    reader.reject_unknown_keys();
    ADD_FAILURE() << "solver.mode was accepted";
  } catch (const ConfigError& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("sim.toml"), HasSubstr("solver.mode:")));
  }
}

TEST(SimulateConfig, resolved_configuration_lists_every_section) {
  ConfigReader reader = ConfigReader::from_string("", "sim.toml");
  bhpm::config::read_simulate_config(reader, "");
  const std::string resolved = reader.resolved_toml();
  for (const char* section :
       {"[equation]", "[domain]", "[solver]", "[initial_condition]", "[data]"})
    EXPECT_THAT(resolved, HasSubstr(section));
  EXPECT_THAT(resolved, HasSubstr("modes = 256"));
}
