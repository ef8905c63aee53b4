#include "io/hdf5_tensor.h"

#include <ATen/ATen.h>

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

}  // namespace bhpm::io
