#include "cli/import_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cli/imported_dataset.h"
#include "cli/number_checks.h"
#include "io/atomic_file.h"
#include "pde/field_system.h"
#include "pde/measurement_sources.h"
#include "util/comma_list.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& option) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw std::invalid_argument(option + " " + text + ": expected KEY=VALUE");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

/// The columns of `options`: each field's column its name unless --column names another.
pde::MeasurementColumns column_names(const ImportOptions& options) {
  pde::require_field_names(options.fields, "--fields");
  pde::MeasurementColumns columns;
  columns.fields = options.fields;
  for (const std::string& text : options.columns) {
    const auto [field, name] = split_assignment(text, "--column");
    const auto declared = std::find(options.fields.begin(), options.fields.end(), field);
    if (field == "experiment")
      columns.experiment = name;
    else if (field == "x")
      columns.x = name;
    else if (field == "y")
      columns.y = name;
    else if (field == "t")
      columns.t = name;
    else if (field == "sigma")
      columns.sigma = name, columns.sigma_required = true;
    else if (declared != options.fields.end())
      columns.fields[static_cast<std::size_t>(declared - options.fields.begin())] = name;
    else
      throw std::invalid_argument("--column " + text + ": unknown field '" + field +
                                  "' (known: experiment, x, y, t, sigma and the fields " +
                                  util::join_with_commas(options.fields) + ")");
  }
  if (columns.of_a_system() && columns.sigma_required)
    throw std::invalid_argument(
        "--column sigma: a system's measurements are imported without "
        "sigma (its leaves fit each field's noise)");
  if (columns.of_a_system())
    columns.sigma.clear();  // not read, even where the file has such a column
  return columns;
}

ImportedAttributes free_attributes(const std::vector<std::string>& assignments) {
  static const std::vector<std::string> reserved = {"name",  "x_min", "x_max", "y_min",
                                                    "y_max", "t_min", "t_max"};
  std::vector<std::pair<std::string, std::string>> attributes;
  for (const std::string& text : assignments) {
    attributes.push_back(split_assignment(text, "--attribute"));
    if (std::find(reserved.begin(), reserved.end(), attributes.back().first) != reserved.end())
      throw std::invalid_argument("--attribute " + text + ": '" + attributes.back().first +
                                  "' is reserved for the experiment's name and window");
  }
  return attributes;
}

/// The settings that made the file, as TOML, stored in its root attribute "import".
std::string import_settings(const ImportOptions& options, const pde::MeasurementColumns& c) {
  const auto quoted = [](const std::string& text) { return "\"" + text + "\""; };
  std::string toml = "input = " + quoted(options.input_path) + "\n";
  toml += "type = " + quoted(options.type) + "\nseed = " + std::to_string(options.seed) + "\n";
  toml += "hold_out = " + std::to_string(options.hold_out) + "\nhold_out_names = [";
  for (std::size_t i = 0; i < options.hold_out_names.size(); ++i)
    toml += (i ? ", " : "") + quoted(options.hold_out_names[i]);
  toml += "]\n[columns]\nexperiment = " + quoted(c.experiment) + "\nx = " + quoted(c.x) +
          "\ny = " + quoted(c.y) + "\nt = " + quoted(c.t) + "\nsigma = " + quoted(c.sigma) + "\n";
  for (std::size_t f = 0; f < c.fields.size(); ++f)
    toml += options.fields[f] + " = " + quoted(c.fields[f]) + "\n";
  return toml;
}

}  // namespace

void setup_import(CLI::App& app) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* command = app.add_subcommand(
      "import", "Measurements from CSV, NumPy .npz or HDF5/NetCDF-4 into a BHPM dataset");
  command->add_option("input", options->input_path, "Measurements (CSV, .npz, .h5, .nc)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output_path, "Dataset to write (HDF5)")->required();
  command->add_option("--type", options->type, "Input type (default: from the extension)")
      ->check(CLI::IsMember({"csv", "npz", "hdf5", "netcdf"}));
  command
      ->add_option("--fields", options->fields,
                   "The measured fields, each a column of its name (comma-separated; default u); "
                   "several make a system's dataset")
      ->delimiter(',');
  command->add_option("--column", options->columns,
                      "FIELD=NAME: the column or array holding experiment, x, y, t, sigma or a "
                      "field (default: the field's own name; sigma is optional; y only when "
                      "named: the points are then on a plane)");
  auto* count = command
                    ->add_option("--hold-out", options->hold_out,
                                 "Hold out the last N experiments as the test set")
                    ->check(non_negative());
  command
      ->add_option("--hold-out-names", options->hold_out_names,
                   "Hold out the experiments of these names (comma-separated)")
      ->delimiter(',')
      ->excludes(count);
  command->add_option("--attribute", options->attributes,
                      "KEY=VALUE stored on every experiment (units, description; repeatable)");
  command->add_option("--seed", options->seed, "Seed of the points' stored order")
      ->check(non_negative());
  command->add_flag("-q,--quiet", options->quiet, "Print only the summary line");
  command->callback([options] { throw CLI::RuntimeError(run_import(*options)); });
}

int run_import(const ImportOptions& options) {
  const util::Stopwatch stopwatch;
  io::require_output_folder(options.output_path);
  const pde::MeasurementColumns columns = column_names(options);
  const ImportedAttributes attributes = free_attributes(options.attributes);
  const pde::MeasurementTable table = pde::read_measurement_file(
      options.input_path, pde::measurement_file_type(options.input_path, options.type), columns);
  const std::string settings = import_settings(options, columns);
  const auto [train, test] =
      columns.of_a_system() ? write_system_measurements(options, table, attributes, settings)
                            : write_one_field_measurements(options, table, attributes, settings);
  std::printf("wrote %s: %zu points in %zu experiments (train %zu, test %zu) from %s, %.2f s\n",
              options.output_path.c_str(), table.rows(), train + test, train, test,
              options.input_path.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
