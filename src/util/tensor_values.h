#pragma once
/// Tensor entries as plain numbers, for the loops that run without tensor operations.

#include <ATen/core/Tensor.h>

#include <vector>

namespace bhpm::util {

/// The entries of `values` (any shape, device and floating type) as doubles, in row-major
/// order; detached from autograd.
std::vector<double> plain_values(const at::Tensor& values);

}  // namespace bhpm::util
