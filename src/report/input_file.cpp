#include "report/input_file.h"

#include <cmath>
#include <stdexcept>

namespace bhpm::report {

namespace {

/// "[a, b]" with "any" for a free extent.
std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + (shape[i] ? std::to_string(shape[i]) : std::string("any"));
  return text + "]";
}

bool shape_matches(const std::vector<std::size_t>& got, const std::vector<std::size_t>& expected) {
  if (got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (expected[i] != 0 && got[i] != expected[i]) return false;
  return true;
}

}  // namespace

io::Hdf5Location open_input(const std::string& path, const std::string& format) {
  io::Hdf5Location file = io::Hdf5Location::open_file(path);
  const std::string found = file.string_attribute("format");
  if (found != format)
    throw std::runtime_error(path + ": attribute 'format' is '" + found + "', expected '" + format +
                             "'");
  return file;
}

io::Hdf5Array<double> read_array(const io::Hdf5Location& location, const std::string& name,
                                 const std::vector<std::size_t>& shape, const std::string& dims) {
  io::Hdf5Array<double> array = location.read_doubles(name);
  if (!shape_matches(array.shape, shape))
    throw std::runtime_error(location.describe(name) + ": shape " + shape_text(array.shape) +
                             ", expected " + shape_text(shape) + " (" + dims + ")");
  return array;
}

double number_or_nan(const io::Hdf5Location& location, const std::string& name) {
  return location.has_attribute(name) ? location.number_attribute(name) : std::nan("");
}

std::string string_or_empty(const io::Hdf5Location& location, const std::string& name) {
  return location.has_attribute(name) ? location.string_attribute(name) : std::string();
}

}  // namespace bhpm::report
