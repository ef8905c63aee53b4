#pragma once
// Tensor helpers that many tests share.

#include <ATen/ATen.h>

namespace bhpm::testing_support {

/// Options of a double-precision CPU tensor: the tests' arithmetic is in float64.
inline const at::TensorOptions kReal = at::TensorOptions().dtype(at::kDouble);

/// max |t| over every element, as a double.
inline double max_abs(const at::Tensor& t) { return t.abs().max().item<double>(); }

}  // namespace bhpm::testing_support
