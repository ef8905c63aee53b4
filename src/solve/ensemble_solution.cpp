#include "solve/ensemble_solution.h"

#include <ATen/ATen.h>

namespace bhpm::solve {

std::int64_t EnsembleSolution::diverged_count() const {
  return diverged.defined() ? diverged.sum().item<std::int64_t>() : 0;
}

}  // namespace bhpm::solve
