#include "model/module_checkpoint.h"

#include <ATen/ATen.h>
#include <torch/nn/module.h>

namespace bhpm::model {

void store_parameters(const torch::nn::Module& module, const std::string& prefix,
                      io::Checkpoint& checkpoint) {
  for (const auto& item : module.named_parameters())
    checkpoint.tensors["param/" + prefix + item.key()] = item.value().detach();
}

void load_parameters(torch::nn::Module& module, const std::string& prefix,
                     const io::Checkpoint& checkpoint, const std::string& source) {
  at::NoGradGuard no_grad;
  for (auto& item : module.named_parameters()) {
    const std::string name = prefix + item.key();
    const at::Tensor& stored = checkpoint.tensor("param/" + name, source);
    if (stored.sizes() != item.value().sizes())
      throw io::CheckpointError(source + ": parameter " + name + " has another shape");
    item.value().copy_(stored);
  }
}

}  // namespace bhpm::model
