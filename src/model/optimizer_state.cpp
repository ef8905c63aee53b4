#include "model/optimizer_state.h"

#include <c10/util/Optional.h>
#include <torch/optim/optimizer.h>
#include <torch/serialize.h>

#include <cstring>
#include <sstream>

namespace bhpm::model {

at::Tensor optimizer_state_bytes(torch::optim::Optimizer& optimizer) {
  std::ostringstream stream;
  torch::save(optimizer, stream);
  const std::string bytes = stream.str();
  at::Tensor tensor = at::empty({static_cast<int64_t>(bytes.size())}, at::kByte);
  std::memcpy(tensor.data_ptr<uint8_t>(), bytes.data(), bytes.size());
  return tensor;
}

void load_optimizer_state(torch::optim::Optimizer& optimizer, const at::Tensor& bytes) {
  const at::Tensor contiguous = bytes.contiguous();
  std::istringstream stream(
      std::string(reinterpret_cast<const char*>(contiguous.data_ptr<uint8_t>()),
                  static_cast<std::size_t>(contiguous.numel())));
  c10::optional<at::Device> device;
  for (const torch::optim::OptimizerParamGroup& group : optimizer.param_groups())
    if (!device && !group.params().empty()) device = group.params().front().device();
  torch::load(optimizer, stream, device);
}

}  // namespace bhpm::model
