#pragma once
/// The uniform output times 0, output_dt, ..., t_end at which every time integration stores
/// its snapshots (pde/periodic_solve.h, pde/bounded_solve.h).

#include <ATen/core/Tensor.h>

#include <string>

namespace bhpm::pde {

/// Throws util::OptionError naming `owner`'s "t_end" or "output_dt" unless t_end > 0 and
/// output_dt is in (0, t_end] and divides t_end (to 1e-9 relative).
void validate_output_times(double t_end, double output_dt, const std::string& owner);

/// [T] double, T = t_end / output_dt + 1; throws as validate_output_times.
at::Tensor uniform_output_times(double t_end, double output_dt, const std::string& owner);

}  // namespace bhpm::pde
