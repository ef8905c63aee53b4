// The true equation of a dataset file, read back from the configuration stored in it by the
// simulate code path; errors name the file.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "config/config_reader.h"
#include "config/dataset_equation.h"
#include "config/simulate_config.h"
#include "pde/dataset_file.h"
#include "pde/equation.h"
#include "pde/experiment_set.h"
#include "pde/periodic_grid.h"
#include "support/error_message.h"

using ::testing::HasSubstr;

namespace {

/// A small simulation of `equation_toml` (an [equation] section): the configuration is
/// resolved and simulated as `bhpm simulate` does, and written to a dataset file whose
/// stored configuration also holds a section of a later stage.
std::string simulate_dataset(const std::string& file_name, const std::string& equation_toml) {
  const std::string path = testing::TempDir() + file_name;
  bhpm::config::ConfigReader reader = bhpm::config::ConfigReader::from_string(
      "seed = 4\n" + equation_toml +
          "[domain]\nt_end = 0.2\n[solver]\nmodes = 16\noutput_dt = 0.1\n"
          "[data]\ntrain_experiments = 1\ntest_experiments = 0\nn_st = 10\n",
      "dataset_equation_test.toml");
  const bhpm::config::SimulateConfig config = bhpm::config::read_simulate_config(reader, ".");
  const bhpm::pde::Equation equation = bhpm::pde::make_equation(config.equation);
  bhpm::pde::ExperimentSetOptions options;
  options.name = "train";
  options.experiments = config.train_experiments;
  options.seed = config.seed;
  options.initial_condition = config.initial_condition;
  options.measurements = config.measurements;
  options.solve = config.solve;
  const bhpm::pde::PeriodicGrid grid(config.x_min, config.x_max, config.modes);
  const auto set = bhpm::pde::simulate_experiment_set(grid, equation, options);
  bhpm::pde::write_dataset(
      path, {set},
      {equation.describe(), reader.resolved_toml() + "\n[train_leaves]\nsteps = 10\n", "test", 1,
       ""});
  return path;
}

/// A dataset file whose stored configuration is `config` (the data are any small set).
std::string dataset_with_config(const std::string& file_name, const std::string& config) {
  const std::string path = simulate_dataset(file_name, "");
  const bhpm::pde::ExperimentSet set = bhpm::pde::read_experiment_set(path, "train");
  bhpm::pde::write_dataset(path, {set}, {"u_t = ?", config, "test", 1, ""});
  return path;
}

std::string error_of(const std::string& path) {
  return bhpm::testing_support::error_message<std::exception>(
      [&] { bhpm::config::read_dataset_equation(path); });
}

}  // namespace

TEST(DatasetEquation, burgers_is_read_back_with_its_viscosity) {
  const std::string path = simulate_dataset("dataset-equation-burgers.h5",
                                            "[equation]\nname = \"burgers\"\nnu = 0.25\n");
  const bhpm::pde::Equation equation = bhpm::config::read_dataset_equation(path);
  EXPECT_EQ(equation.name, "burgers");
  EXPECT_EQ(equation.linear, (std::vector<double>{0.0, 0.0, 0.25}));
  ASSERT_TRUE(equation.nonlinear);
  EXPECT_EQ(equation.nonlinear->describe(), "-u*u_x");
  EXPECT_EQ(equation.describe(), bhpm::pde::read_dataset_metadata(path).equation);
  std::remove(path.c_str());
}

TEST(DatasetEquation, defaults_and_general_equations_round_trip) {
  const std::string defaults = simulate_dataset("dataset-equation-default.h5", "");
  EXPECT_EQ(bhpm::config::read_dataset_equation(defaults).describe(), "u_t = 0.1 u_xx + (-u*u_x)");
  std::remove(defaults.c_str());

  const std::string general =
      simulate_dataset("dataset-equation-general.h5",
                       "[equation]\nname = \"general\"\nlinear = [0.0, 0.0, 0.05]\n"
                       "nonlinear = \"-u*u_x + 0.1*u*(1 - u^2)\"\n");
  const bhpm::pde::Equation equation = bhpm::config::read_dataset_equation(general);
  EXPECT_EQ(equation.linear, (std::vector<double>{0.0, 0.0, 0.05}));
  EXPECT_EQ(equation.describe(), "u_t = 0.05 u_xx + (-u*u_x + 0.1*u*(1 - u^2))");
  std::remove(general.c_str());
}

TEST(DatasetEquation, errors_name_the_file_and_the_field) {
  const std::string missing = testing::TempDir() + "dataset-equation-missing.h5";
  EXPECT_THAT(error_of(missing), HasSubstr(missing));

  const std::string unknown =
      dataset_with_config("dataset-equation-unknown.h5", "[equation]\nname = \"wave\"\n");
  EXPECT_THAT(error_of(unknown),
              AllOf(HasSubstr(unknown), HasSubstr("equation.name"), HasSubstr("wave")));
  std::remove(unknown.c_str());

  const std::string syntax = dataset_with_config("dataset-equation-syntax.h5", "[equation\n");
  EXPECT_THAT(error_of(syntax), AllOf(HasSubstr(syntax), HasSubstr("invalid TOML")));
  std::remove(syntax.c_str());

  const std::string bad_nu =
      dataset_with_config("dataset-equation-nu.h5", "[equation]\nname = \"heat\"\nnu = nan\n");
  EXPECT_THAT(error_of(bad_nu), AllOf(HasSubstr(bad_nu), HasSubstr("equation.nu")));
  std::remove(bad_nu.c_str());
}
