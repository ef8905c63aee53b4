#pragma once
/// Measurements of a system of fields without a solution grid (`bhpm import` with several
/// fields or a y column): one experiment is a cloud of P points (x_j[, y_j], t_j), each
/// measuring every field or some (fields measured together or separately), any P, on its
/// own window. The leaves of a system are fitted to
/// them (docs/systems.md, "Learning a system"); pde/measured_experiment.h is the one-field,
/// one-dimension form.

#include <ATen/core/Tensor.h>

#include <string>
#include <utility>
#include <vector>

namespace bhpm::pde {

/// The box [x_min, x_max] (x [y_min, y_max]) x [t_min, t_max] an experiment's leaf lives on;
/// y_min = y_max = 0 in one dimension.
struct SystemWindow {
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0, t_min = 0, t_max = 0;
};

struct MeasuredSystemExperiment {
  std::string name;
  at::Tensor x, y, t;  ///< [P] double, in random order (any prefix a random subset); y
                       ///< undefined in one dimension
  at::Tensor u;        ///< [P, q] double: each field at each point, NaN where not measured
  SystemWindow window;
  std::vector<std::pair<std::string, std::string>> attributes;  ///< free text: units, ...

  std::int64_t points() const { return x.size(0); }
};

/// The fields, dimensions and experiments of one set of such a file.
struct MeasuredSystemSet {
  std::vector<std::string> fields;  ///< [q]
  int dimensions = 1;
  std::vector<MeasuredSystemExperiment> experiments;
};

/// Throws std::invalid_argument naming `source`, the experiment and the rule unless x, t
/// (and y when dimensions = 2) are finite [P] double arrays and u a [P, q] one, finite
/// where not NaN (a field not measured there), each point measuring a field and each field
/// measured at 2 points at least, P >= 2, every value at most kLargestMeasurement
/// (pde/measured_experiment.h) in magnitude, no two points at the same (x[, y], t), the
/// window of positive extent on every axis and holding every point.
void validate(const MeasuredSystemExperiment& experiment, std::int64_t fields, int dimensions,
              const std::string& source);

}  // namespace bhpm::pde
