#pragma once
/// JSON has no NaN or infinity: every JSON file BHPM writes (metrics, distillation,
/// discrepancy) stores a number that is not finite as null.

#include <nlohmann/json.hpp>

#include <cmath>

namespace bhpm::io {

/// `value` as a JSON number, or null when it is NaN or infinite.
inline nlohmann::ordered_json finite_or_null(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json();
}

}  // namespace bhpm::io
