#include "solve/ensemble_solution.h"

#include <ATen/ATen.h>

namespace bhpm::solve {

std::int64_t EnsembleSolution::diverged_count() const {
  return diverged.defined() ? diverged.sum().item<std::int64_t>() : 0;
}

std::int64_t EnsembleSolution::rejected_count() const {
  return rejected.defined() ? rejected.sum().item<std::int64_t>() : 0;
}

at::Tensor EnsembleSolution::repaired() const {
  return added_diffusion.defined() ? added_diffusion > 0.0 : at::zeros({u.size(0)}, at::kBool);
}

std::int64_t EnsembleSolution::repaired_count() const {
  return repaired().sum().item<std::int64_t>();
}

at::Tensor EnsembleSolution::left_out() const {
  at::Tensor out = diverged.defined() ? diverged.clone() : at::zeros({u.size(0)}, at::kBool);
  if (rejected.defined()) out |= rejected;
  return out;
}

}  // namespace bhpm::solve
