#include "cli/import_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cli/number_checks.h"
#include "io/atomic_file.h"
#include "pde/measured_dataset_file.h"
#include "pde/measurement_sources.h"
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

pde::MeasurementColumns column_names(const std::vector<std::string>& assignments) {
  pde::MeasurementColumns columns;
  for (const std::string& text : assignments) {
    const auto [field, name] = split_assignment(text, "--column");
    if (field == "experiment")
      columns.experiment = name;
    else if (field == "x")
      columns.x = name;
    else if (field == "t")
      columns.t = name;
    else if (field == "u")
      columns.u = name;
    else if (field == "sigma")
      columns.sigma = name, columns.sigma_required = true;
    else
      throw std::invalid_argument("--column " + text + ": unknown field '" + field +
                                  "' (known: experiment, x, t, u, sigma)");
  }
  return columns;
}

std::vector<std::pair<std::string, std::string>> free_attributes(
    const std::vector<std::string>& assignments) {
  static const std::vector<std::string> reserved = {"name", "x_min", "x_max", "t_min", "t_max"};
  std::vector<std::pair<std::string, std::string>> attributes;
  for (const std::string& text : assignments) {
    attributes.push_back(split_assignment(text, "--attribute"));
    if (std::find(reserved.begin(), reserved.end(), attributes.back().first) != reserved.end())
      throw std::invalid_argument("--attribute " + text + ": '" + attributes.back().first +
                                  "' is reserved for the experiment's name and window");
  }
  return attributes;
}

bool held_out(const ImportOptions& options, const std::vector<pde::MeasuredExperiment>& all,
              std::size_t e) {
  if (!options.hold_out_names.empty())
    return std::find(options.hold_out_names.begin(), options.hold_out_names.end(), all[e].name) !=
           options.hold_out_names.end();
  return e + static_cast<std::size_t>(options.hold_out) >= all.size();
}

/// (train, test) by the options; throws when a named experiment does not exist or no
/// training experiment would remain.
std::pair<std::vector<pde::MeasuredExperiment>, std::vector<pde::MeasuredExperiment>> split(
    const ImportOptions& options, const std::vector<pde::MeasuredExperiment>& all) {
  for (const std::string& name : options.hold_out_names)
    if (std::none_of(all.begin(), all.end(), [&](const auto& e) { return e.name == name; }))
      throw std::invalid_argument(options.input_path + ": --hold-out-names: no experiment '" +
                                  name + "'");
  std::vector<pde::MeasuredExperiment> train, test;
  for (std::size_t e = 0; e < all.size(); ++e)
    (held_out(options, all, e) ? test : train).push_back(all[e]);
  if (train.empty())
    throw std::invalid_argument(options.input_path + ": holding out " +
                                std::to_string(test.size()) + " of " + std::to_string(all.size()) +
                                " experiments leaves none to train on");
  return {train, test};
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
          "\nt = " + quoted(c.t) + "\nu = " + quoted(c.u) + "\nsigma = " + quoted(c.sigma) + "\n";
  return toml;
}

void print_experiments(const char* set, const std::vector<pde::MeasuredExperiment>& experiments) {
  for (const auto& e : experiments)
    std::printf("  %-5s %-16s %8lld points  x in [%.4g, %.4g]  t in [%.4g, %.4g]%s\n", set,
                e.name.c_str(), static_cast<long long>(e.points()), e.window.x_min, e.window.x_max,
                e.window.t_min, e.window.t_max, e.sigma.defined() ? "  with sigma" : "");
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
  command->add_option("--column", options->columns,
                      "FIELD=NAME: the column or array holding experiment, x, t, u or sigma "
                      "(default: the field's own name; sigma is optional)");
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
  const pde::MeasurementColumns columns = column_names(options.columns);
  const auto attributes = free_attributes(options.attributes);
  const pde::MeasurementTable table = pde::read_measurement_file(
      options.input_path, pde::measurement_file_type(options.input_path, options.type), columns);
  std::vector<pde::MeasuredExperiment> all = pde::group_experiments(table, options.seed);
  for (auto& experiment : all) experiment.attributes = attributes;
  const auto [train, test] = split(options, all);
  pde::DatasetMetadata metadata;
  metadata.created_by = "bhpm " BHPM_VERSION " import";
  metadata.import_settings = import_settings(options, columns);
  pde::write_measured_dataset(options.output_path, train, test, metadata);
  std::printf("wrote %s: %zu points in %zu experiments (train %zu, test %zu) from %s, %.2f s\n",
              options.output_path.c_str(), table.rows(), all.size(), train.size(), test.size(),
              options.input_path.c_str(), stopwatch.seconds());
  if (!options.quiet) {
    print_experiments("train", train);
    print_experiments("test", test);
  }
  return 0;
}

}  // namespace bhpm::cli
