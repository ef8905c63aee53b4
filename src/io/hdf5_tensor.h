#pragma once
/// Tensors as HDF5 arrays: int64 tensors as int64, everything else as double.

#include <ATen/core/Tensor.h>

#include <string>

#include "io/hdf5_file.h"

namespace bhpm::io {

/// Writes `tensor` (any shape, detached, on the CPU) under `name` in `group`.
void write_tensor(const Hdf5Location& group, const std::string& name, const at::Tensor& tensor,
                  const ArrayInfo& info);

}  // namespace bhpm::io
