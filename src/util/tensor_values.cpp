#include "util/tensor_values.h"

#include <ATen/ATen.h>

namespace bhpm::util {

std::vector<double> plain_values(const at::Tensor& values) {
  const at::Tensor cpu = values.detach().to(at::kCPU, at::kDouble).contiguous();
  return {cpu.data_ptr<double>(), cpu.data_ptr<double>() + cpu.numel()};
}

}  // namespace bhpm::util
