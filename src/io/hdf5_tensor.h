#pragma once
/// Tensors as HDF5 arrays: int64 tensors as int64, everything else as double; double
/// arrays read back as double tensors.

#include <ATen/core/Tensor.h>

#include <string>

#include "io/hdf5_file.h"

namespace bhpm::io {

/// Writes `tensor` (any shape, detached, on the CPU) under `name` in `group`.
void write_tensor(const Hdf5Location& group, const std::string& name, const at::Tensor& tensor,
                  const ArrayInfo& info);

/// The double array `name` of `group` as a double tensor of its shape; throws Hdf5Error
/// naming the array when it is missing or has another number of dimensions than `rank`.
at::Tensor read_tensor(const Hdf5Location& group, const std::string& name, std::size_t rank);

}  // namespace bhpm::io
