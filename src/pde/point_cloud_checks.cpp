#include "pde/point_cloud_checks.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "pde/measured_experiment.h"

namespace bhpm::pde {

void require_rule(bool ok, const std::string& where, const std::string& rule) {
  if (!ok) throw std::invalid_argument(where + ": " + rule);
}

void require_measurements(const at::Tensor& values, const std::string& name, int rank,
                          std::int64_t length, const std::string& where) {
  const std::string shape = rank == 1 ? "one-dimensional" : "two-dimensional";
  require_rule(values.defined() && values.dim() == rank && values.scalar_type() == at::kDouble,
               where, name + " must be a " + shape + " double array");
  require_rule(
      values.size(0) == length, where,
      name + " has " + std::to_string(values.size(0)) + " values, x has " + std::to_string(length));
  require_rule(at::isfinite(values).all().item<bool>(), where, name + " holds NaN or Inf");
  require_rule(values.numel() == 0 || values.abs().max().item<double>() <= kLargestMeasurement,
               where, name + " exceeds 1e150 in magnitude (the leaves' scaling would overflow)");
}

bool repeats_a_point(const std::vector<at::Tensor>& coordinates) {
  const at::Tensor points = at::stack(coordinates, 1).cpu().contiguous();  // [P, d]
  const std::int64_t count = points.size(0), d = points.size(1);
  const double* p = points.data_ptr<double>();
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) rows[i].assign(p + i * d, p + (i + 1) * d);
  std::sort(rows.begin(), rows.end());
  return std::adjacent_find(rows.begin(), rows.end()) != rows.end();
}

void require_axis_window(const at::Tensor& values, const std::string& axis, double min, double max,
                         const std::string& where) {
  require_rule(std::isfinite(min) && std::isfinite(max) && max > min, where,
               "zero or non-finite extent in " + axis +
                   " (a leaf needs a window of positive size on every axis)");
  require_rule(values.numel() == 0 ||
                   (values.min().item<double>() >= min && values.max().item<double>() <= max),
               where, "points lie outside its window in " + axis);
}

}  // namespace bhpm::pde
