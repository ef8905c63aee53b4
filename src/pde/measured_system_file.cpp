#include "pde/measured_system_file.h"

#include <ATen/ATen.h>

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "io/hdf5_tensor.h"
#include "pde/dataset_file.h"
#include "pde/measurement_groups.h"
#include "util/comma_list.h"

namespace bhpm::pde {

namespace {

const std::vector<std::string> kSystemWindowAndName = {"name",  "x_min", "x_max", "y_min",
                                                       "y_max", "t_min", "t_max"};

void write_measured_system_experiment(const io::Hdf5Location& group, const MeasuredSystemSet& set,
                                      const MeasuredSystemExperiment& experiment) {
  const SystemWindow& w = experiment.window;
  group.set_attribute("name", experiment.name);
  group.set_attribute("x_min", w.x_min);
  group.set_attribute("x_max", w.x_max);
  if (set.dimensions == 2) {
    group.set_attribute("y_min", w.y_min);
    group.set_attribute("y_max", w.y_max);
  }
  group.set_attribute("t_min", w.t_min);
  group.set_attribute("t_max", w.t_max);
  for (const auto& [key, value] : experiment.attributes) group.set_attribute(key, value);
  io::write_tensor(group, "x", experiment.x, {"point", "as measured", "x of the point"});
  if (set.dimensions == 2)
    io::write_tensor(group, "y", experiment.y, {"point", "as measured", "y of the point"});
  io::write_tensor(group, "t", experiment.t, {"point", "as measured", "t of the point"});
  for (std::size_t f = 0; f < set.fields.size(); ++f)
    io::write_tensor(group, set.fields[f],
                     experiment.u.select(1, static_cast<std::int64_t>(f)).contiguous(),
                     {"point", "as measured", "measured " + set.fields[f]});
}

void write_measured_system_set(const io::Hdf5Location& file, const std::string& name,
                               const MeasuredSystemSet& set) {
  const io::Hdf5Location group = create_set(file, name, set.experiments.size());
  for (std::size_t e = 0; e < set.experiments.size(); ++e)
    write_measured_system_experiment(group.create_group(std::to_string(e)), set,
                                     set.experiments[e]);
}

MeasuredSystemExperiment read_measured_system_experiment(const io::Hdf5Location& group,
                                                         const MeasuredSystemSet& set) {
  MeasuredSystemExperiment experiment;
  experiment.name = group.string_attribute("name");
  SystemWindow& w = experiment.window;
  w.x_min = group.number_attribute("x_min"), w.x_max = group.number_attribute("x_max");
  w.t_min = group.number_attribute("t_min"), w.t_max = group.number_attribute("t_max");
  experiment.x = io::read_tensor(group, "x", 1);
  experiment.t = io::read_tensor(group, "t", 1);
  if (set.dimensions == 2) {
    w.y_min = group.number_attribute("y_min"), w.y_max = group.number_attribute("y_max");
    experiment.y = io::read_tensor(group, "y", 1);
  }
  std::vector<at::Tensor> fields;
  for (const std::string& field : set.fields) fields.push_back(io::read_tensor(group, field, 1));
  experiment.u = at::stack(fields, 1).contiguous();
  experiment.attributes = free_attributes(group, kSystemWindowAndName);
  return experiment;
}

}  // namespace

void write_measured_system_dataset(const std::string& path, const MeasuredSystemSet& train,
                                   const MeasuredSystemSet& test, const std::string& created_by,
                                   const std::string& import_settings) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string(kDatasetFormat));
    file.set_attribute("format_version", kMeasuredSystemVersion);
    file.set_attribute("fields", util::join_with_commas(train.fields));
    file.set_attribute("dimensions", static_cast<std::int64_t>(train.dimensions));
    file.set_attribute("created_by", created_by);
    file.set_attribute("import", import_settings);
    write_measured_system_set(file, "train", train);
    if (!test.experiments.empty()) write_measured_system_set(file, "test", test);
  }  // closes the file before the rename
  output.commit();
}

bool holds_measured_system(const std::string& path) {
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  return file.has_attribute("format") && file.string_attribute("format") == kDatasetFormat &&
         file.has_attribute("format_version") &&
         file.number_attribute("format_version") == static_cast<double>(kMeasuredSystemVersion);
}

MeasuredSystemSet read_measured_system_set(const std::string& path, const std::string& name) {
  if (!holds_measured_system(path))
    throw io::Hdf5Error(path + ": not a system's measurements (format '" +
                        std::string(kDatasetFormat) + "', format_version 4, from bhpm import)");
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  if (!file.has(name)) throw io::Hdf5Error(path + ":/" + name + ": the dataset has no such set");
  MeasuredSystemSet set;
  set.fields = util::split_at_commas(file.string_attribute("fields"));
  set.dimensions = static_cast<int>(file.number_attribute("dimensions"));
  if (set.fields.empty() || (set.dimensions != 1 && set.dimensions != 2))
    throw io::Hdf5Error(path +
                        ": attributes 'fields' (one name at least) and 'dimensions' (1 or "
                        "2) are needed");
  for (const io::Hdf5Location& group : experiment_groups(file, name)) {
    set.experiments.push_back(read_measured_system_experiment(group, set));
    validate(set.experiments.back(), static_cast<std::int64_t>(set.fields.size()), set.dimensions,
             group.describe());
  }
  return set;
}

}  // namespace bhpm::pde
