#include "pde/measured_dataset_file.h"

#include <ATen/ATen.h>

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "io/hdf5_tensor.h"
#include "pde/measurement_groups.h"

namespace bhpm::pde {

namespace {

constexpr std::int64_t kMeasuredVersion = 2;
const std::vector<std::string> kWindowAndName = {"name", "x_min", "x_max", "t_min", "t_max"};

void write_experiment(const io::Hdf5Location& set, std::size_t index,
                      const MeasuredExperiment& experiment) {
  const io::Hdf5Location group = set.create_group(std::to_string(index));
  group.set_attribute("name", experiment.name);
  group.set_attribute("x_min", experiment.window.x_min);
  group.set_attribute("x_max", experiment.window.x_max);
  group.set_attribute("t_min", experiment.window.t_min);
  group.set_attribute("t_max", experiment.window.t_max);
  for (const auto& [key, value] : experiment.attributes) group.set_attribute(key, value);
  io::write_tensor(group, "x", experiment.x, {"point", "as measured", "x of the point"});
  io::write_tensor(group, "t", experiment.t, {"point", "as measured", "t of the point"});
  io::write_tensor(group, "u", experiment.u, {"point", "as measured", "measured u"});
  if (experiment.sigma.defined())
    io::write_tensor(group, "sigma", experiment.sigma,
                     {"point", "as u", "noise standard deviation of the measurement"});
}

void write_set(const io::Hdf5Location& file, const std::string& name,
               const std::vector<MeasuredExperiment>& experiments) {
  const io::Hdf5Location set = create_set(file, name, experiments.size());
  for (std::size_t e = 0; e < experiments.size(); ++e) write_experiment(set, e, experiments[e]);
}

MeasuredExperiment read_experiment(const io::Hdf5Location& group) {
  MeasuredExperiment experiment;
  experiment.name = group.string_attribute("name");
  experiment.window = {group.number_attribute("x_min"), group.number_attribute("x_max"),
                       group.number_attribute("t_min"), group.number_attribute("t_max")};
  experiment.x = io::read_tensor(group, "x", 1);
  experiment.t = io::read_tensor(group, "t", 1);
  experiment.u = io::read_tensor(group, "u", 1);
  if (group.has("sigma")) experiment.sigma = io::read_tensor(group, "sigma", 1);
  experiment.attributes = free_attributes(group, kWindowAndName);
  return experiment;
}

std::vector<MeasuredExperiment> read_version_2_set(const std::string& path,
                                                   const std::string& name) {
  std::vector<MeasuredExperiment> experiments;
  for (const io::Hdf5Location& group : experiment_groups(io::Hdf5Location::open_file(path), name)) {
    experiments.push_back(read_experiment(group));
    validate(experiments.back(), group.describe());
  }
  return experiments;
}

}  // namespace

void write_measured_dataset(const std::string& path, const std::vector<MeasuredExperiment>& train,
                            const std::vector<MeasuredExperiment>& test,
                            const DatasetMetadata& metadata) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string(kDatasetFormat));
    file.set_attribute("format_version", kMeasuredVersion);
    if (!metadata.equation.empty()) file.set_attribute("equation", metadata.equation);
    if (!metadata.config.empty()) file.set_attribute("config", metadata.config);
    file.set_attribute("created_by", metadata.created_by);
    if (!metadata.import_settings.empty()) file.set_attribute("import", metadata.import_settings);
    write_set(file, "train", train);
    if (!test.empty()) write_set(file, "test", test);
  }  // closes the file before the rename
  output.commit();
}

std::vector<MeasuredExperiment> read_measured_set(const std::string& path,
                                                  const std::string& name) {
  if (read_dataset_metadata(path).format_version >= kMeasuredVersion)
    return read_version_2_set(path, name);
  std::vector<MeasuredExperiment> experiments =
      measured_experiments(read_experiment_set(path, name));
  for (const auto& experiment : experiments) validate(experiment, path + ":/" + name);
  return experiments;
}

}  // namespace bhpm::pde
