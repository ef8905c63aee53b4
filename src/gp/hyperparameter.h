#pragma once
/// A GP part's hyperparameter as callers outside gp/ see it (kernel.h, mean.h): its
/// constrained value with the name, symbol, dimensions, units and meaning under which
/// files (root.h5), progress lines and reports show it. Exporters need nothing else, so
/// a new kernel or mean is exported without any caller knowing its type.

#include <ATen/core/Tensor.h>

#include <string>

namespace bhpm::gp {

struct Hyperparameter {
  std::string name;         ///< file name of the value, e.g. "lengthscales", "mean_bias"
  std::string symbol;       ///< short symbol for progress lines, e.g. "l", "b"
  at::Tensor value;         ///< [] or [D], detached, double
  std::string dims;         ///< comma-separated dimension names ("" for a scalar)
  std::string units;        ///< e.g. "as root_inputs/v"
  std::string description;  ///< one line, e.g. "ARD lengthscales l_i"
};

}  // namespace bhpm::gp
