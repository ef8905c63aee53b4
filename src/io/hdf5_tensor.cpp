#include "io/hdf5_tensor.h"

#include <ATen/ATen.h>

#include <string>
#include <vector>

namespace bhpm::io {

void write_tensor(const Hdf5Location& group, const std::string& name, const at::Tensor& tensor,
                  const ArrayInfo& info) {
  const at::Tensor data = tensor.detach().cpu().contiguous();
  const std::vector<std::size_t> shape(data.sizes().begin(), data.sizes().end());
  if (data.scalar_type() == at::kLong) {
    group.write_array(name, data.data_ptr<std::int64_t>(), shape, info);
  } else {
    const at::Tensor values = data.to(at::kDouble).contiguous();
    group.write_array(name, values.data_ptr<double>(), shape, info);
  }
}

at::Tensor read_tensor(const Hdf5Location& group, const std::string& name, std::size_t rank) {
  const Hdf5Array<double> array = group.read_doubles(name);
  if (array.shape.size() != rank)
    throw Hdf5Error(group.describe(name) + ": expected " + std::to_string(rank) +
                    " dimensions, found " + std::to_string(array.shape.size()));
  const std::vector<std::int64_t> sizes(array.shape.begin(), array.shape.end());
  return at::tensor(array.values, at::kDouble).reshape(sizes);
}

}  // namespace bhpm::io
