#pragma once
/// The rules every cloud of measured points obeys, one-field (pde/measured_experiment.h) or
/// a system's (pde/measured_system.h): finite double arrays of one length, bounded values,
/// no point measured twice, a window of positive extent holding every point.

#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace bhpm::pde {

/// Throws std::invalid_argument "`where`: `rule`" unless `ok`.
void require_rule(bool ok, const std::string& where, const std::string& rule);

/// Throws naming `where` and `name` unless `values` is a double array of `rank` dimensions
/// (1 or 2) with `length` rows, every value finite and at most kLargestMeasurement in
/// magnitude (pde/measured_experiment.h).
void require_measurements(const at::Tensor& values, const std::string& name, int rank,
                          std::int64_t length, const std::string& where);

/// Whether two points share every coordinate; `coordinates` [d] of [P] double arrays.
bool repeats_a_point(const std::vector<at::Tensor>& coordinates);

/// Throws naming `where` and `axis` unless min < max are finite and every value lies in
/// [min, max].
void require_axis_window(const at::Tensor& values, const std::string& axis, double min, double max,
                         const std::string& where);

}  // namespace bhpm::pde
