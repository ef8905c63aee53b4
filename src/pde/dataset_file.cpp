#include "pde/dataset_file.h"

#include <ATen/ATen.h>

#include "io/atomic_file.h"
#include "io/hdf5_file.h"
#include "io/hdf5_tensor.h"
#include "pde/measured_system_file.h"
#include "pde/system_dataset_file.h"
#include "util/number_format.h"

namespace bhpm::pde {

namespace {

constexpr std::int64_t kGridVersion = 1;  ///< what write_dataset writes
/// The newest version read here (2: pde/measured_dataset_file.h); version 3
/// (pde/system_dataset_file.h) is refused by name.
constexpr std::int64_t kNewestVersion = 2;

void write_set(const io::Hdf5Location& file, const pde::ExperimentSet& set) {
  const io::Hdf5Location group = file.create_group(set.name);
  group.set_attribute("experiments", static_cast<std::int64_t>(set.u.size(0)));
  group.set_attribute("n_st", static_cast<std::int64_t>(set.sample_u.size(1)));
  group.set_attribute("noise", set.noise);
  group.set_attribute("boundary",
                      set.conditions.empty() ? std::string("periodic") : set.conditions);
  group.set_attribute("dt", set.dt);
  group.set_attribute("steps", set.steps);
  group.set_attribute("rejected_steps", set.rejected_steps);
  io::write_tensor(
      group, "x", set.x,
      {"x", "length (nondimensional)",
       set.conditions.empty() ? "periodic grid points" : "Chebyshev points of a bounded domain"});
  io::write_tensor(group, "t", set.t, {"t", "time (nondimensional)", "output times"});
  io::write_tensor(group, "u", set.u, {"experiment,t,x", "u (nondimensional)", "solution u(x, t)"});
  const io::Hdf5Location samples = group.create_group("measurements");
  const std::string dims = "experiment,point";
  io::write_tensor(samples, "index", set.sample_index,
                   {dims, "", "flat grid index t_index * len(x) + x_index"});
  io::write_tensor(samples, "x", set.sample_x, {dims, "length (nondimensional)", "x of the point"});
  io::write_tensor(samples, "t", set.sample_t, {dims, "time (nondimensional)", "t of the point"});
  io::write_tensor(samples, "u", set.sample_u,
                   {dims, "u (nondimensional)", "measured u: u_clean + noise * N(0, 1)"});
  io::write_tensor(samples, "u_clean", set.sample_u_clean,
                   {dims, "u (nondimensional)", "noise-free u at the point"});
}

void require_shape(bool ok, const io::Hdf5Location& group, const std::string& name,
                   const std::string& rule) {
  if (!ok) throw io::Hdf5Error(group.describe(name) + ": " + rule);
}

}  // namespace

void write_dataset(const std::string& path, const std::vector<pde::ExperimentSet>& sets,
                   const DatasetMetadata& metadata) {
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string(kDatasetFormat));
    file.set_attribute("format_version", kGridVersion);
    file.set_attribute("equation", metadata.equation);
    file.set_attribute("config", metadata.config);
    file.set_attribute("created_by", metadata.created_by);
    for (const auto& set : sets) write_set(file, set);
  }  // closes the file before the rename
  output.commit();
}

DatasetMetadata read_dataset_metadata(const std::string& path) {
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  if (!file.has_attribute("format") || file.string_attribute("format") != kDatasetFormat)
    throw io::Hdf5Error(path + ": not a BHPM dataset (attribute 'format' is not '" +
                        std::string(kDatasetFormat) + "')");
  const double version = file.number_attribute("format_version");
  if (version == static_cast<double>(kSystemDatasetVersion) ||
      version == static_cast<double>(kMeasuredSystemVersion))
    throw io::Hdf5Error(path + ": a system of fields or a 2-D box (dataset format_version " +
                        util::format_significant(version, 1) +
                        "): this step reads one field on a line (versions 1 and 2); a "
                        "configuration with a [system] section learns from it (docs/systems.md)");
  if (version > static_cast<double>(kNewestVersion) || version < 1)
    throw io::Hdf5Error(path + ": dataset format_version " + util::format_significant(version, 10) +
                        " is not one this program reads (1 to " + std::to_string(kNewestVersion) +
                        ")");
  const auto optional = [&](const char* name) {
    return file.has_attribute(name) ? file.string_attribute(name) : std::string();
  };
  DatasetMetadata metadata{optional("equation"), optional("config"), optional("created_by"),
                           static_cast<std::int64_t>(version), optional("import")};
  if (metadata.format_version == kGridVersion &&
      (metadata.equation.empty() || metadata.config.empty()))
    throw io::Hdf5Error(path +
                        ": a version 1 dataset needs the attributes 'equation' and 'config'");
  return metadata;
}

std::int64_t dataset_experiments(const std::string& path, const std::string& name) {
  read_dataset_metadata(path);
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  if (!file.has(name)) return 0;
  return static_cast<std::int64_t>(file.open_group(name).number_attribute("experiments"));
}

namespace {

/// A set group's `boundary` attribute as ExperimentSet::conditions ("" when periodic or
/// absent).
std::string set_conditions(const io::Hdf5Location& group) {
  if (!group.has_attribute("boundary")) return "";
  const std::string boundary = group.string_attribute("boundary");
  return boundary == "periodic" ? "" : boundary;
}

}  // namespace

std::string dataset_conditions(const std::string& path, const std::string& name) {
  read_dataset_metadata(path);
  const io::Hdf5Location file = io::Hdf5Location::open_file(path);
  return file.has(name) ? set_conditions(file.open_group(name)) : "";
}

pde::ExperimentSet read_experiment_set(const std::string& path, const std::string& name) {
  if (read_dataset_metadata(path).format_version != kGridVersion)
    throw io::Hdf5Error(path +
                        ": measurements only (dataset format_version 2, from bhpm import): "
                        "it has no solution grid, which this step needs (simulate's files have "
                        "one)");
  const io::Hdf5Location group = io::Hdf5Location::open_file(path).open_group(name);
  pde::ExperimentSet set;
  set.name = name;
  set.x = io::read_tensor(group, "x", 1);
  set.t = io::read_tensor(group, "t", 1);
  set.u = io::read_tensor(group, "u", 3);
  require_shape(set.u.size(1) == set.t.size(0) && set.u.size(2) == set.x.size(0), group, "u",
                "shape must be [experiments, len(t), len(x)]");
  for (auto [field, grid] : {std::pair{"x", &set.x}, {"t", &set.t}, {"u", &set.u}})
    require_shape(at::isfinite(*grid).all().item<bool>(), group, field, "contains NaN or Inf");
  set.noise = group.number_attribute("noise");
  set.dt = group.number_attribute("dt");
  set.conditions = set_conditions(group);
  const io::Hdf5Location samples = group.open_group("measurements");
  const io::Hdf5Array<std::int64_t> index = samples.read_integers("index");
  require_shape(
      index.shape.size() == 2 && index.shape[0] == static_cast<std::size_t>(set.u.size(0)), samples,
      "index", "shape must be [experiments, n_st]");
  set.sample_index =
      at::tensor(index.values, at::kLong)
          .reshape({static_cast<int64_t>(index.shape[0]), static_cast<int64_t>(index.shape[1])});
  const std::int64_t grid_size = set.u.size(1) * set.u.size(2);
  require_shape(
      set.sample_index.numel() == 0 || (set.sample_index.min().item<std::int64_t>() >= 0 &&
                                        set.sample_index.max().item<std::int64_t>() < grid_size),
      samples, "index", "values must lie in [0, len(t) * len(x))");
  for (auto [field, target] : {std::pair{"x", &set.sample_x},
                               {"t", &set.sample_t},
                               {"u", &set.sample_u},
                               {"u_clean", &set.sample_u_clean}}) {
    *target = io::read_tensor(samples, field, 2);
    require_shape(target->sizes() == set.sample_index.sizes(), samples, field,
                  "shape must equal that of measurements/index");
    require_shape(at::isfinite(*target).all().item<bool>(), samples, field, "contains NaN or Inf");
  }
  return set;
}

}  // namespace bhpm::pde
