#include "pde/system_dataset_file.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "pde/dataset_file.h"
#include "pde/measured_system_file.h"
#include "util/comma_list.h"

namespace bhpm::pde {

namespace {

std::vector<std::size_t> shape_of(std::initializer_list<std::int64_t> sizes) {
  std::vector<std::size_t> shape;
  for (std::int64_t size : sizes) shape.push_back(static_cast<std::size_t>(size));
  return shape;
}

void write_measurements(const io::Hdf5Location& group, const PeriodicBox& box,
                        const SystemExperimentSet& set, const std::vector<std::string>& fields) {
  const io::Hdf5Location samples = group.create_group("measurements");
  const std::vector<std::size_t> shape = shape_of({set.experiments, set.n_st});
  const std::string dims = "experiment,point";
  samples.write_array("index", set.sample_index.data(), shape,
                      {dims, "", "flat grid index t_index * points + y_index * len(x) + x_index"});
  samples.write_array("x", set.sample_x.data(), shape,
                      {dims, "length (nondimensional)", "x of the point"});
  if (box.dimensions() == 2)
    samples.write_array("y", set.sample_y.data(), shape,
                        {dims, "length (nondimensional)", "y of the point"});
  samples.write_array("t", set.sample_t.data(), shape,
                      {dims, "time (nondimensional)", "t of the point"});
  const std::size_t per_field = static_cast<std::size_t>(set.n_st);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::vector<double> measured, clean;
    for (std::int64_t e = 0; e < set.experiments; ++e) {
      const std::size_t begin = (static_cast<std::size_t>(e) * fields.size() + i) * per_field;
      measured.insert(measured.end(), set.sample_u.begin() + begin,
                      set.sample_u.begin() + begin + per_field);
      clean.insert(clean.end(), set.sample_u_clean.begin() + begin,
                   set.sample_u_clean.begin() + begin + per_field);
    }
    const std::string& f = fields[i];
    samples.write_array(
        f, measured.data(), shape,
        {dims, f + " (nondimensional)", "measured " + f + ": clean + noise * N(0, 1)"});
    samples.write_array(f + "_clean", clean.data(), shape,
                        {dims, f + " (nondimensional)", "noise-free " + f + " at the point"});
  }
}

void write_system_set(const io::Hdf5Location& file, const PeriodicBox& box,
                      const SystemExperimentSet& set, const std::vector<std::string>& fields) {
  const io::Hdf5Location group = file.create_group(set.name);
  group.set_attribute("experiments", set.experiments);
  group.set_attribute("n_st", set.n_st);
  group.set_attribute("noise", set.noise);
  group.set_attribute("steps", set.steps);
  group.set_attribute("rejected_steps", set.rejected_steps);
  const std::vector<double> x = box.x(), y = box.y();
  group.write_array("x", x.data(), shape_of({box.nx()}),
                    {"x", "length (nondimensional)", "periodic grid points"});
  const bool two = box.dimensions() == 2;
  if (two)
    group.write_array("y", y.data(), shape_of({box.ny()}),
                      {"y", "length (nondimensional)", "periodic grid points"});
  const std::int64_t times = static_cast<std::int64_t>(set.t.size());
  group.write_array("t", set.t.data(), shape_of({times}),
                    {"t", "time (nondimensional)", "output times"});
  const std::vector<std::size_t> shape =
      two ? shape_of({set.experiments, times, box.ny(), box.nx()})
          : shape_of({set.experiments, times, box.nx()});
  const std::int64_t q = static_cast<std::int64_t>(fields.size());
  for (std::int64_t i = 0; i < q; ++i)
    group.write_array(fields[i], field_values(set.u, i, q, box.points()).data(), shape,
                      {two ? "experiment,t,y,x" : "experiment,t,x", fields[i] + " (nondimensional)",
                       "solution " + fields[i] + (two ? "(x, y, t)" : "(x, t)")});
  write_measurements(group, box, set, fields);
}

}  // namespace

void write_system_dataset(const std::string& path, const PeriodicBox& box,
                          const std::vector<SystemExperimentSet>& sets,
                          const SystemDatasetMetadata& metadata) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string(kDatasetFormat));
    file.set_attribute("format_version", kSystemDatasetVersion);
    file.set_attribute("system", metadata.system);
    file.set_attribute("fields", util::join_with_commas(metadata.fields));
    file.set_attribute("dimensions", metadata.dimensions);
    file.set_attribute("config", metadata.config);
    file.set_attribute("created_by", metadata.created_by);
    for (const auto& set : sets) write_system_set(file, box, set, metadata.fields);
  }  // closes the file before the rename
  output.commit();
}

SystemDatasetMetadata read_system_dataset_metadata(const std::string& path) {
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  const double version =
      file.has_attribute("format_version") ? file.number_attribute("format_version") : 0.0;
  const bool measured = version == static_cast<double>(kMeasuredSystemVersion);
  if (!file.has_attribute("format") || file.string_attribute("format") != kDatasetFormat ||
      (!measured && version != static_cast<double>(kSystemDatasetVersion)))
    throw io::Hdf5Error(path + ": not a dataset of a field system (format '" +
                        std::string(kDatasetFormat) + "', format_version 3 or 4)");
  const auto fields = util::split_at_commas(file.string_attribute("fields"));
  const auto dimensions = static_cast<std::int64_t>(file.number_attribute("dimensions"));
  if (measured)
    return {
        "", fields, dimensions, "", file.string_attribute("created_by"), kMeasuredSystemVersion};
  return {file.string_attribute("system"),
          fields,
          dimensions,
          file.string_attribute("config"),
          file.string_attribute("created_by"),
          kSystemDatasetVersion};
}

namespace {

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string text;
  for (std::size_t size : shape) text += (text.empty() ? "" : ", ") + std::to_string(size);
  return "[" + text + "]";
}

/// The array `name` of `group` with the shape `expected`, every value finite.
std::vector<double> read_checked(const io::Hdf5Location& group, const std::string& where,
                                 const std::string& name,
                                 const std::vector<std::size_t>& expected) {
  io::Hdf5Array<double> array = group.read_doubles(name);
  if (array.shape != expected)
    throw io::Hdf5Error(where + "/" + name + ": has shape " + shape_text(array.shape) +
                        ", expected " + shape_text(expected));
  for (std::size_t i = 0; i < array.values.size(); ++i)
    if (!std::isfinite(array.values[i]))
      throw io::Hdf5Error(where + "/" + name + ": value " + std::to_string(i) + " is not finite (" +
                          std::to_string(array.values[i]) + ")");
  return std::move(array.values);
}

/// The periodic box of a set's grid x [n_x] (and y [n_y]): evenly spaced, the upper end
/// one spacing past the last point.
PeriodicBox box_of(const std::vector<double>& x, const std::vector<double>& y,
                   const std::string& where) {
  const auto axis_end = [&](const std::vector<double>& grid, const char* axis) {
    if (grid.size() < 4 || !(grid[1] > grid[0]))
      throw io::Hdf5Error(where + "/" + axis + ": must hold at least 4 increasing grid points");
    return grid.front() + static_cast<double>(grid.size()) * (grid[1] - grid[0]);
  };
  const auto n = [](const std::vector<double>& grid) {
    return static_cast<std::int64_t>(grid.size());
  };
  if (y.empty()) return PeriodicBox(x.front(), axis_end(x, "x"), n(x));
  return PeriodicBox(x.front(), axis_end(x, "x"), n(x), y.front(), axis_end(y, "y"), n(y));
}

/// Measurements [E, n_st] of every field into the set's [E, q, n_st] layout.
void read_samples(const io::Hdf5Location& samples, const std::string& where,
                  const std::vector<std::string>& fields, SystemExperimentSet& set) {
  const std::vector<std::size_t> shape = shape_of({set.experiments, set.n_st});
  const std::int64_t q = static_cast<std::int64_t>(fields.size());
  set.sample_u.assign(static_cast<std::size_t>(set.experiments * q * set.n_st), 0.0);
  set.sample_u_clean = set.sample_u;
  for (std::int64_t f = 0; f < q; ++f) {
    const std::vector<double> measured = read_checked(samples, where, fields[f], shape);
    const std::vector<double> clean = read_checked(samples, where, fields[f] + "_clean", shape);
    for (std::int64_t e = 0; e < set.experiments; ++e)
      for (std::int64_t p = 0; p < set.n_st; ++p) {
        const std::size_t from = static_cast<std::size_t>(e * set.n_st + p);
        const std::size_t to = static_cast<std::size_t>((e * q + f) * set.n_st + p);
        set.sample_u[to] = measured[from];
        set.sample_u_clean[to] = clean[from];
      }
  }
}

}  // namespace

std::int64_t system_set_experiments(const std::string& path, const std::string& set_name) {
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  if (!file.has(set_name)) return 0;
  return static_cast<std::int64_t>(file.open_group(set_name).number_attribute("experiments"));
}

SystemDataset read_system_dataset(const std::string& path, const std::string& set_name) {
  SystemDatasetMetadata metadata = read_system_dataset_metadata(path);
  if (metadata.measured_only())
    throw io::Hdf5Error(path +
                        ": measurements only (dataset format_version 4, from bhpm import): "
                        "no solution grid, which this step reads");
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  const std::string where = path + ":/" + set_name;
  if (!file.has(set_name)) throw io::Hdf5Error(where + ": the dataset has no such set");
  const io::Hdf5Location group = file.open_group(set_name);
  const bool two = metadata.dimensions == 2;
  const std::vector<double> x = group.read_doubles("x").values;
  const std::vector<double> y = two ? group.read_doubles("y").values : std::vector<double>();
  PeriodicBox box = box_of(x, y, where);
  SystemExperimentSet set;
  set.name = set_name;
  set.t = group.read_doubles("t").values;
  set.experiments = static_cast<std::int64_t>(group.number_attribute("experiments"));
  set.n_st = static_cast<std::int64_t>(group.number_attribute("n_st"));
  set.noise = group.number_attribute("noise");
  set.steps = static_cast<std::int64_t>(group.number_attribute("steps"));
  set.rejected_steps = static_cast<std::int64_t>(group.number_attribute("rejected_steps"));
  const std::int64_t q = static_cast<std::int64_t>(metadata.fields.size());
  const std::int64_t times = static_cast<std::int64_t>(set.t.size());
  const std::vector<std::size_t> grid_shape =
      two ? shape_of({set.experiments, times, box.ny(), box.nx()})
          : shape_of({set.experiments, times, box.nx()});
  set.u.assign(static_cast<std::size_t>(set.experiments * times * q * box.points()), 0.0);
  for (std::int64_t f = 0; f < q; ++f) {
    const std::vector<double> grid = read_checked(group, where, metadata.fields[f], grid_shape);
    for (std::int64_t s = 0; s < set.experiments * times; ++s)
      std::copy_n(grid.begin() + s * box.points(), box.points(),
                  set.u.begin() + (s * q + f) * box.points());
  }
  const io::Hdf5Location samples = group.open_group("measurements");
  const std::string sample_where = where + "/measurements";
  const std::vector<std::size_t> shape = shape_of({set.experiments, set.n_st});
  set.sample_x = read_checked(samples, sample_where, "x", shape);
  set.sample_t = read_checked(samples, sample_where, "t", shape);
  set.sample_y = two ? read_checked(samples, sample_where, "y", shape)
                     : std::vector<double>(set.sample_x.size(), box.y_min());
  const io::Hdf5Array<std::int64_t> index = samples.read_integers("index");
  set.sample_index = index.values;
  read_samples(samples, sample_where, metadata.fields, set);
  return {std::move(metadata), box, std::move(set)};
}

}  // namespace bhpm::pde
