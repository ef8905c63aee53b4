#pragma once
/// An optimizer's state (Adam's moments and step counts) as a byte tensor, so it can be
/// stored in an io::Checkpoint next to the parameters and restored on resume.

#include <ATen/core/Tensor.h>

namespace torch::optim {
class Optimizer;
}

namespace bhpm::model {

/// The serialized state [bytes] (uint8).
at::Tensor optimizer_state_bytes(torch::optim::Optimizer& optimizer);

/// Restores a state saved by optimizer_state_bytes into an optimizer over the same
/// parameters, on the device of its first parameter (a run may resume on another device);
/// throws std::runtime_error if the bytes do not match.
void load_optimizer_state(torch::optim::Optimizer& optimizer, const at::Tensor& bytes);

}  // namespace bhpm::model
