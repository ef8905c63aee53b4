#include "pde/system_dataset_file.h"

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "pde/dataset_file.h"
#include "util/comma_list.h"

namespace bhpm::pde {

namespace {

std::vector<std::size_t> shape_of(std::initializer_list<std::int64_t> sizes) {
  std::vector<std::size_t> shape;
  for (std::int64_t size : sizes) shape.push_back(static_cast<std::size_t>(size));
  return shape;
}

/// One field's grids [E, T, (n_y,) n_x] out of u [E, T, q, points].
std::vector<double> field_grids(const SystemExperimentSet& set, std::int64_t field,
                                std::int64_t fields, std::int64_t points) {
  const std::int64_t snapshots = set.experiments * static_cast<std::int64_t>(set.t.size());
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(snapshots * points));
  for (std::int64_t s = 0; s < snapshots; ++s) {
    const auto begin = set.u.begin() + (s * fields + field) * points;
    values.insert(values.end(), begin, begin + points);
  }
  return values;
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
    group.write_array(fields[i], field_grids(set, i, q, box.points()).data(), shape,
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
  if (!file.has_attribute("format") || file.string_attribute("format") != kDatasetFormat ||
      file.number_attribute("format_version") != static_cast<double>(kSystemDatasetVersion))
    throw io::Hdf5Error(path + ": not a dataset of a field system (format '" +
                        std::string(kDatasetFormat) + "', format_version 3)");
  return {file.string_attribute("system"), util::split_at_commas(file.string_attribute("fields")),
          static_cast<std::int64_t>(file.number_attribute("dimensions")),
          file.string_attribute("config"), file.string_attribute("created_by")};
}

}  // namespace bhpm::pde
