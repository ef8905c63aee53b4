#include "io/hdf5_file.h"

#include <cstring>

namespace bhpm::io {

namespace {

/// Closes an HDF5 identifier when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void silence_hdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

std::shared_ptr<hid_t> share(hid_t id, herr_t (*close)(hid_t)) {
  return std::shared_ptr<hid_t>(new hid_t(id), [close](hid_t* h) {
    if (*h >= 0) close(*h);
    delete h;
  });
}

std::string join_path(const std::string& path, const std::string& name) {
  return path == "/" ? "/" + name : path + "/" + name;
}

hid_t string_type() {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

}  // namespace

Hdf5Location Hdf5Location::create_file(const std::string& path) {
  silence_hdf5();
  hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw Hdf5Error(path + ": cannot create HDF5 file");
  return Hdf5Location(share(id, H5Fclose), path, "/");
}

Hdf5Location Hdf5Location::open_file(const std::string& path) {
  silence_hdf5();
  if (H5Fis_hdf5(path.c_str()) <= 0) throw Hdf5Error(path + ": missing or not an HDF5 file");
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw Hdf5Error(path + ": cannot open HDF5 file");
  return Hdf5Location(share(id, H5Fclose), path, "/");
}

std::string Hdf5Location::describe(const std::string& name) const {
  return file_ + ":" + (name.empty() ? path_ : join_path(path_, name));
}

Hdf5Location Hdf5Location::create_group(const std::string& name) const {
  hid_t id = H5Gcreate2(this->id(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw Hdf5Error(describe(name) + ": cannot create group");
  return Hdf5Location(share(id, H5Gclose), file_, join_path(path_, name));
}

Hdf5Location Hdf5Location::open_group(const std::string& name) const {
  if (!has(name)) throw Hdf5Error(describe(name) + ": group is missing");
  hid_t id = H5Gopen2(this->id(), name.c_str(), H5P_DEFAULT);
  if (id < 0) throw Hdf5Error(describe(name) + ": not a group");
  return Hdf5Location(share(id, H5Gclose), file_, join_path(path_, name));
}

bool Hdf5Location::has(const std::string& name) const {
  return H5Lexists(id(), name.c_str(), H5P_DEFAULT) > 0;
}

void Hdf5Location::write_typed(const std::string& name, hid_t type, const void* data,
                               const std::vector<std::size_t>& shape, const ArrayInfo& info) const {
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle set(H5Dcreate2(id(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose);
  if (!space.valid() || !set.valid() ||
      H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw Hdf5Error(describe(name) + ": cannot write dataset");
  Hdf5Location dataset(share(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), H5Dclose), file_,
                       join_path(path_, name));
  if (!info.dims.empty()) dataset.set_attribute("dims", info.dims);
  if (!info.units.empty()) dataset.set_attribute("units", info.units);
  if (!info.description.empty()) dataset.set_attribute("description", info.description);
}

void Hdf5Location::write_array(const std::string& name, const double* data,
                               const std::vector<std::size_t>& shape, const ArrayInfo& info) const {
  write_typed(name, H5T_NATIVE_DOUBLE, data, shape, info);
}

void Hdf5Location::write_array(const std::string& name, const std::int64_t* data,
                               const std::vector<std::size_t>& shape, const ArrayInfo& info) const {
  write_typed(name, H5T_NATIVE_INT64, data, shape, info);
}

std::vector<std::size_t> Hdf5Location::read_typed(const std::string& name, hid_t type,
                                                  std::vector<char>& bytes,
                                                  std::size_t element) const {
  if (!has(name)) throw Hdf5Error(describe(name) + ": dataset is missing");
  Handle set(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set.valid()) throw Hdf5Error(describe(name) + ": not a dataset");
  Handle space(H5Dget_space(set), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(rank > 0 ? rank : 0);
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::vector<std::size_t> shape(dims.begin(), dims.end());
  std::size_t count = 1;
  for (auto d : shape) count *= d;
  bytes.resize(count * element);
  if (H5Dread(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0)
    throw Hdf5Error(describe(name) + ": cannot read as a numeric array");
  return shape;
}

Hdf5Array<double> Hdf5Location::read_doubles(const std::string& name) const {
  std::vector<char> bytes;
  Hdf5Array<double> array;
  array.shape = read_typed(name, H5T_NATIVE_DOUBLE, bytes, sizeof(double));
  array.values.resize(bytes.size() / sizeof(double));
  std::memcpy(array.values.data(), bytes.data(), bytes.size());
  return array;
}

Hdf5Array<std::int64_t> Hdf5Location::read_integers(const std::string& name) const {
  std::vector<char> bytes;
  Hdf5Array<std::int64_t> array;
  array.shape = read_typed(name, H5T_NATIVE_INT64, bytes, sizeof(std::int64_t));
  array.values.resize(bytes.size() / sizeof(std::int64_t));
  std::memcpy(array.values.data(), bytes.data(), bytes.size());
  return array;
}

void Hdf5Location::set_attribute(const std::string& name, const std::string& value) const {
  Handle type(string_type(), H5Tclose);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(id(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const char* text = value.c_str();
  if (!attribute.valid() || H5Awrite(attribute, type, &text) < 0)
    throw Hdf5Error(describe() + ": cannot write attribute '" + name + "'");
}

namespace {
template <typename T>
void write_scalar_attribute(hid_t location, const std::string& name, hid_t type, T value,
                            const std::string& where) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(location, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                   H5Aclose);
  if (!attribute.valid() || H5Awrite(attribute, type, &value) < 0)
    throw Hdf5Error(where + ": cannot write attribute '" + name + "'");
}
}  // namespace

void Hdf5Location::set_attribute(const std::string& name, double value) const {
  write_scalar_attribute(id(), name, H5T_NATIVE_DOUBLE, value, describe());
}

void Hdf5Location::set_attribute(const std::string& name, std::int64_t value) const {
  write_scalar_attribute(id(), name, H5T_NATIVE_INT64, value, describe());
}

bool Hdf5Location::has_attribute(const std::string& name) const {
  return H5Aexists(id(), name.c_str()) > 0;
}

namespace {

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

}  // namespace

std::vector<std::string> Hdf5Location::attribute_names() const {
  std::vector<std::string> names;
  if (H5Aiterate2(id(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute_name, &names) < 0)
    throw Hdf5Error(describe() + ": cannot list the attributes");
  return names;
}

std::string Hdf5Location::string_attribute(const std::string& name) const {
  if (!has_attribute(name)) throw Hdf5Error(describe() + ": attribute '" + name + "' is missing");
  Handle attribute(H5Aopen(id(), name.c_str(), H5P_DEFAULT), H5Aclose);
  Handle type(string_type(), H5Tclose);
  char* text = nullptr;
  if (H5Aread(attribute, type, &text) < 0 || !text)
    throw Hdf5Error(describe() + ": attribute '" + name + "' is not a string");
  std::string value(text);
  H5free_memory(text);
  return value;
}

double Hdf5Location::number_attribute(const std::string& name) const {
  if (!has_attribute(name)) throw Hdf5Error(describe() + ": attribute '" + name + "' is missing");
  Handle attribute(H5Aopen(id(), name.c_str(), H5P_DEFAULT), H5Aclose);
  double value = 0;
  if (H5Aread(attribute, H5T_NATIVE_DOUBLE, &value) < 0)
    throw Hdf5Error(describe() + ": attribute '" + name + "' is not a number");
  return value;
}

}  // namespace bhpm::io
