#include "cli/imported_dataset.h"

#include <cstdio>

#include "pde/held_out_experiments.h"
#include "pde/measured_dataset_file.h"
#include "pde/measured_system_file.h"

namespace bhpm::cli {

namespace {

/// (train, test) by the options' held-out experiments.
template <typename Experiment>
std::pair<std::vector<Experiment>, std::vector<Experiment>> split(
    const ImportOptions& options, const std::vector<Experiment>& all) {
  std::vector<std::string> names;
  for (const Experiment& experiment : all) names.push_back(experiment.name);
  const std::vector<bool> held_out = pde::held_out_experiments(
      names, options.hold_out, options.hold_out_names, options.input_path);
  std::vector<Experiment> train, test;
  for (std::size_t e = 0; e < all.size(); ++e) (held_out[e] ? test : train).push_back(all[e]);
  return {train, test};
}

/// One experiment's line: its set, name, points and window (y only in two dimensions).
void print_experiment(const char* set, const std::string& name, std::int64_t points,
                      const pde::SystemWindow& w, bool two, const char* note) {
  std::printf("  %-5s %-16s %8lld points  x in [%.4g, %.4g]", set, name.c_str(),
              static_cast<long long>(points), w.x_min, w.x_max);
  if (two) std::printf("  y in [%.4g, %.4g]", w.y_min, w.y_max);
  std::printf("  t in [%.4g, %.4g]%s\n", w.t_min, w.t_max, note);
}

void print_experiments(const char* set, const std::vector<pde::MeasuredExperiment>& experiments) {
  for (const auto& e : experiments)
    print_experiment(set, e.name, e.points(),
                     {e.window.x_min, e.window.x_max, 0, 0, e.window.t_min, e.window.t_max}, false,
                     e.sigma.defined() ? "  with sigma" : "");
}

void print_experiments(const char* set, const pde::MeasuredSystemSet& experiments) {
  for (const auto& e : experiments.experiments)
    print_experiment(set, e.name, e.points(), e.window, experiments.dimensions == 2, "");
}

}  // namespace

std::pair<std::size_t, std::size_t> write_system_measurements(const ImportOptions& options,
                                                              const pde::MeasurementTable& table,
                                                              const ImportedAttributes& attributes,
                                                              const std::string& settings) {
  pde::MeasuredSystemSet all = pde::group_system_experiments(table, options.fields, options.seed);
  for (auto& experiment : all.experiments) experiment.attributes = attributes;
  auto [train, test] = split(options, all.experiments);
  const pde::MeasuredSystemSet train_set{all.fields, all.dimensions, std::move(train)};
  const pde::MeasuredSystemSet test_set{all.fields, all.dimensions, std::move(test)};
  pde::write_measured_system_dataset(options.output_path, train_set, test_set,
                                     "bhpm " BHPM_VERSION " import", settings);
  if (!options.quiet) {
    print_experiments("train", train_set);
    print_experiments("test", test_set);
  }
  return {train_set.experiments.size(), test_set.experiments.size()};
}

std::pair<std::size_t, std::size_t> write_one_field_measurements(
    const ImportOptions& options, const pde::MeasurementTable& table,
    const ImportedAttributes& attributes, const std::string& settings) {
  std::vector<pde::MeasuredExperiment> all = pde::group_experiments(table, options.seed);
  for (auto& experiment : all) experiment.attributes = attributes;
  const auto [train, test] = split(options, all);
  pde::DatasetMetadata metadata;
  metadata.created_by = "bhpm " BHPM_VERSION " import";
  metadata.import_settings = settings;
  pde::write_measured_dataset(options.output_path, train, test, metadata);
  if (!options.quiet) {
    print_experiments("train", train);
    print_experiments("test", test);
  }
  return {train.size(), test.size()};
}

}  // namespace bhpm::cli
