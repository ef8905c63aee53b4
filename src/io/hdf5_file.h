#pragma once
/// A small RAII layer over the HDF5 C API: files, groups, double/int64 arrays and
/// string/number attributes. Errors are exceptions naming the file and the object;
/// HDF5's own error printing is switched off.

#include <hdf5.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace bhpm::io {

class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A dense row-major array read back from a file.
template <typename T>
struct Hdf5Array {
  std::vector<T> values;
  std::vector<std::size_t> shape;
};

/// Annotation stored with an array so that h5py users can read it without our code.
struct ArrayInfo {
  std::string dims;         ///< comma-separated axis names, e.g. "experiment,t,x"
  std::string units;        ///< physical units of the values
  std::string description;  ///< one line on what the values are
};

/// A file or a group inside one; cheap to copy (shared handle).
class Hdf5Location {
 public:
  /// Creates (truncating) an HDF5 file.
  static Hdf5Location create_file(const std::string& path);
  /// Opens an existing HDF5 file read-only.
  static Hdf5Location open_file(const std::string& path);

  Hdf5Location create_group(const std::string& name) const;
  Hdf5Location open_group(const std::string& name) const;
  bool has(const std::string& name) const;

  void write_array(const std::string& name, const double* data,
                   const std::vector<std::size_t>& shape, const ArrayInfo& info) const;
  void write_array(const std::string& name, const std::int64_t* data,
                   const std::vector<std::size_t>& shape, const ArrayInfo& info) const;
  Hdf5Array<double> read_doubles(const std::string& name) const;
  Hdf5Array<std::int64_t> read_integers(const std::string& name) const;

  void set_attribute(const std::string& name, const std::string& value) const;
  void set_attribute(const std::string& name, double value) const;
  void set_attribute(const std::string& name, std::int64_t value) const;
  std::string string_attribute(const std::string& name) const;
  double number_attribute(const std::string& name) const;
  bool has_attribute(const std::string& name) const;
  /// The names of every attribute of this object, in the file's order.
  std::vector<std::string> attribute_names() const;

  /// "file.h5:/group/name" for messages.
  std::string describe(const std::string& name = "") const;

 private:
  Hdf5Location(std::shared_ptr<hid_t> handle, std::string file, std::string path)
      : handle_(std::move(handle)), file_(std::move(file)), path_(std::move(path)) {}
  hid_t id() const { return *handle_; }
  void write_typed(const std::string& name, hid_t type, const void* data,
                   const std::vector<std::size_t>& shape, const ArrayInfo& info) const;
  std::vector<std::size_t> read_typed(const std::string& name, hid_t type, std::vector<char>& bytes,
                                      std::size_t element) const;

  std::shared_ptr<hid_t> handle_;
  std::string file_;
  std::string path_;
};

}  // namespace bhpm::io
