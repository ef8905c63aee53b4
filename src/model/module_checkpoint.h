#pragma once
/// A torch module's named parameters in an io::Checkpoint, under "param/<prefix><name>".

#include <string>

#include "io/checkpoint.h"

namespace torch::nn {
class Module;
}

namespace bhpm::model {

/// Adds every named parameter of `module` to `checkpoint`.
void store_parameters(const torch::nn::Module& module, const std::string& prefix,
                      io::Checkpoint& checkpoint);

/// Overwrites every named parameter of `module` with the stored value (not recorded by
/// autograd). Throws io::CheckpointError naming `source` when one is missing or of
/// another shape.
void load_parameters(torch::nn::Module& module, const std::string& prefix,
                     const io::Checkpoint& checkpoint, const std::string& source);

}  // namespace bhpm::model
